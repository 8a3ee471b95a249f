/** The read API's objects, as far as the viewer reads them. */

export const NODE_STATES = [
  'working',
  'input_required',
  'idle',
  'completed',
  'failed',
  'canceled',
] as const;
export type NodeState = (typeof NODE_STATES)[number];

export interface Retention {
  event_count: number;
  first_event_id: string | null;
  first_event_created: number | null;
  last_event_id: string | null;
  last_event_created: number | null;
}

export interface GraphCounts {
  nodes: number;
  sessions: number;
  agents: number;
  stale: number;
  blocked: number;
  by_state: Record<NodeState, number>;
}

export interface Graph {
  id: string;
  object: 'graph';
  as_of_event_id: string | null;
  source: string;
  url: string;
  created: number;
  last_event: number | null;
  retention: Retention;
  counts: GraphCounts;
}

export interface Blocked {
  on_ids: string[];
  starting: number;
  node_count: number;
  open_tasks: number;
  cycle: boolean;
}

export interface Attention {
  reason: string;
  message?: string | null;
  since?: number;
}

export interface TaskCounts {
  total: number;
  pending: number;
  in_progress: number;
  completed: number;
  open: number;
}

export interface Task {
  id: string;
  content: string;
  status: string;
  active_form: string | null;
}

export interface Spawn {
  spawn_call_id: string | null;
  node_id: string;
  agent_type: string | null;
  purpose: string | null;
  background: boolean;
  created: number;
}

export interface Wait {
  on_id: string;
  reason: string | null;
  started: number;
  ended: number | null;
}

export interface Message {
  id: string;
  direction: 'sent' | 'received';
  from_id: string;
  to_id: string;
  created: number;
  text: string;
}

export interface List<T> {
  object: 'list';
  url: string;
  as_of_event_id: string | null;
  has_more: boolean;
  data: T[];
}

export interface Node {
  id: string;
  as_of_event_id?: string;
  provider_ref: string;
  kind: 'session' | 'agent';
  parent_id: string | null;
  depth: number;
  state: NodeState;
  stale: boolean;
  attention: Attention | null;
  title: string | null;
  summary?: string | null;
  headline: string | null;
  purpose: string | null;
  agent_type: string | null;
  background: boolean | null;
  cwd?: string | null;
  created: number;
  ended: number | null;
  last_event: number;
  child_count: number;
  descendant_count: number;
  background_agent_count: number;
  task_counts: TaskCounts;
  blocked: Blocked | null;
  tasks?: List<Task>;
  spawns?: List<Spawn>;
  waits?: List<Wait>;
  messages?: List<Message>;
}

export interface FieldChange {
  from: unknown;
  to: unknown;
}

export interface Change {
  node_id: string;
  created: boolean;
  fields: Record<string, FieldChange>;
}

export interface GraphEvent {
  id: string;
  type: string;
  created: number;
  node_id: string;
  payload: Record<string, unknown>;
  changes: Change[];
}

/** An error answered by the API (its envelope), or a network failure (status 0). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly firstEventId: string | null = null,
  ) {
    super(message);
  }
}
