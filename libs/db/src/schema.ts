import { ColumnType, Generated } from 'kysely';
import type { StoredGraphCounts, TaskItem } from '@graph-history/domain';

type Json<T> = ColumnType<T, string | T, string | T>;

export interface AccountsTable {
  account_id: Generated<number>;
  name: string;
  created: number;
}

export interface ApiKeysTable {
  key_id: string;
  account_id: number;
  kind: 'secret' | 'restricted';
  hash: Buffer;
  masked: string;
  graph_keys: string[] | null;
  created: number;
  revoked: number | null;
}

export interface ViewerSessionsTable {
  token_hash: Buffer;
  key_id: string;
  created: number;
  expires: number;
}

export interface GraphDirectoryTable {
  graph_key: string;
  graph_id: Generated<number>;
  account_id: number;
}

export interface GraphsTable {
  graph_id: number;
  graph_key: string;
  account_id: number;
  source: 'watch' | 'paste' | 'upload';
  created: number;
  ingested_seq: Generated<number>;
  applied_seq: Generated<number>;
  first_seq: number | null;
  last_event: number | null;
  counts: Json<StoredGraphCounts> | null;
  trimmed_seq: Generated<number>;
  /** The stored event the reducer refused (migration 0005); null while the graph applies. */
  stalled_seq: number | null;
  stalled_error: string | null;
  stalled_at: number | null;
  /** What the graph's stored events weigh (sum of event_keys.bytes of held events; 0011). */
  stored_bytes: Generated<number>;
}

export interface InboxTable {
  graph_id: number;
  seq: number;
  body: Json<unknown>;
  received: number;
}

export interface EventKeysTable {
  graph_id: number;
  key: string;
  seq: number;
  /** The event's JSON size as stored at ingest (migration 0012). */
  bytes: Generated<number>;
}

/** An account's overrides of the quota defaults; null: the deployment's default (0011). */
export interface AccountQuotasTable {
  account_id: number;
  max_graphs: number | null;
  max_bytes: number | null;
  events_per_second: number | null;
  updated: number;
}

export interface NodeRefsTable {
  graph_id: number;
  ref: string;
  ended: Generated<boolean>;
  session_ref: string | null;
  depth: number | null;
}

export interface EventsTable {
  graph_id: number;
  seq: number;
  key: string;
  type: string;
  created: number;
  node_no: number;
  counts: Json<StoredGraphCounts>;
  applied: number;
  /** The read API's Event as JSON (storedEventJson): its `source`, `payload` and `changes`. */
  public_json: string;
  /**
   * Working nodes as of the previous event last touched at or after this event's `created` minus
   * `stale_after_ms` (the threshold the apply used): those not stale just before this event.
   * Both null on rows older than migration 0010.
   */
  active_before: number | null;
  stale_after_ms: number | null;
}

export interface NodeVersionsTable {
  graph_id: number;
  node_no: number;
  valid_from: number;
  sort_key: string;
  parent_no: number | null;
  depth: number;
  kind: 'session' | 'agent';
  state: string;
  last_event: number;
  /** valid_from of the node's next version; null while this one is current. */
  superseded_seq: number | null;
  /** The record's createdSeq, the one field its public JSON lacks. */
  created_seq: number;
  /** The read API's Node as JSON (storedNodeJson): the record is rebuilt from it (nodeRecordFromJson). */
  public_json: string;
}

export interface TaskSnapshotsTable {
  graph_id: number;
  node_no: number;
  seq: number;
  tasks: Json<TaskItem[]>;
}

export interface SpawnsTable {
  graph_id: number;
  requester_no: number;
  child_no: number;
  seq: number;
  spawn_call_id: string | null;
  agent_type: string;
  purpose: string;
  background: boolean;
  created: number;
}

export interface WaitsTable {
  graph_id: number;
  node_no: number;
  on_no: number;
  started_seq: number;
  started: number;
  reason: string | null;
  ended_seq: number | null;
  ended: number | null;
}

export interface MessagesTable {
  graph_id: number;
  seq: number;
  from_no: number;
  to_no: number;
  message_id: string;
  text: string | null;
  created: number;
}

/** The one key public ids are sealed with (migration 0012). */
export interface IdKeyTable {
  id: Generated<number>;
  key: Buffer;
}

/** What an applied event changed that a person should know (migration 0014). */
export interface NoticesTable {
  notice_no: Generated<number>;
  account_id: number;
  graph_id: number;
  node_no: number | null;
  seq: number | null;
  type: string;
  created: number;
  body: string;
  /** Turned into webhook deliveries (migration 0015). */
  dispatched: Generated<boolean>;
}

/** An account's webhook endpoint (migration 0015); null types or graph_keys: every one. */
export interface WebhookEndpointsTable {
  endpoint_id: string;
  account_id: number;
  url: string;
  types: string[] | null;
  graph_keys: string[] | null;
  secret: string;
  /** The secret before the last rotation, which still signs until previous_secret_until. */
  previous_secret: string | null;
  previous_secret_until: number | null;
  disabled: number | null;
  disabled_reason: string | null;
  /** When its attempts began failing without a success since; null while it succeeds. */
  failing_since: number | null;
  created: number;
}

/** One notice (or test) to send to one endpoint, until delivered or out of attempts. */
export interface WebhookDeliveriesTable {
  delivery_id: Generated<number>;
  endpoint_id: string;
  /** null for a test delivery. */
  notice_no: number | null;
  notice_id: string;
  body: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  next_attempt: number;
  /** While a sender holds it; another takes it only after this. */
  lease_until: number | null;
  created: number;
  finished: number | null;
}

export interface WebhookAttemptsTable {
  delivery_id: number;
  attempt_no: number;
  started: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface Database {
  accounts: AccountsTable;
  account_quotas: AccountQuotasTable;
  api_keys: ApiKeysTable;
  viewer_sessions: ViewerSessionsTable;
  graph_directory: GraphDirectoryTable;
  graphs: GraphsTable;
  inbox: InboxTable;
  event_keys: EventKeysTable;
  node_refs: NodeRefsTable;
  events: EventsTable;
  node_versions: NodeVersionsTable;
  task_snapshots: TaskSnapshotsTable;
  spawns: SpawnsTable;
  waits: WaitsTable;
  messages: MessagesTable;
  id_key: IdKeyTable;
  notices: NoticesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
