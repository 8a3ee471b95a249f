import type { InsertColumns } from './insert-rows';

/*
 * The columns the apply's statement (ApplyRepository.commitIfCurrent) inserts into each table, in
 * order, with the types they travel as (see insertRowsSql). bench:apply-cpu builds the same
 * inserts from this module.
 */

export const EVENT_COLUMNS: InsertColumns<'events'> = {
  graph_id: 'bigint',
  seq: 'bigint',
  key: 'text',
  type: 'text',
  created: 'bigint',
  node_no: 'int',
  counts: 'jsonb text',
  applied: 'bigint',
  public_json: 'json text',
  active_before: 'int',
  stale_after_ms: 'bigint',
};
export const VERSION_COLUMNS: InsertColumns<'node_versions'> = {
  graph_id: 'bigint',
  node_no: 'int',
  valid_from: 'bigint',
  sort_key: 'text',
  parent_no: 'int',
  depth: 'int',
  kind: 'text',
  state: 'text',
  last_event: 'bigint',
  superseded_seq: 'bigint',
  created_seq: 'bigint',
  public_json: 'json text',
};
export const SNAPSHOT_COLUMNS: InsertColumns<'task_snapshots'> = {
  graph_id: 'bigint',
  node_no: 'int',
  seq: 'bigint',
  tasks: 'jsonb',
};
export const SPAWN_COLUMNS: InsertColumns<'spawns'> = {
  graph_id: 'bigint',
  requester_no: 'int',
  child_no: 'int',
  seq: 'bigint',
  spawn_call_id: 'text',
  agent_type: 'text',
  purpose: 'text',
  background: 'boolean',
  created: 'bigint',
};
export const MESSAGE_COLUMNS: InsertColumns<'messages'> = {
  graph_id: 'bigint',
  seq: 'bigint',
  from_no: 'int',
  to_no: 'int',
  message_id: 'text',
  text: 'text',
  created: 'bigint',
};
export const WAIT_COLUMNS: InsertColumns<'waits'> = {
  graph_id: 'bigint',
  node_no: 'int',
  on_no: 'int',
  started_seq: 'bigint',
  started: 'bigint',
  reason: 'text',
  ended_seq: 'bigint',
  ended: 'bigint',
};
export const NOTICE_COLUMNS: InsertColumns<'notices'> = {
  account_id: 'bigint',
  notice_no: 'bigint',
  graph_id: 'bigint',
  node_no: 'int',
  seq: 'bigint',
  type: 'text',
  created: 'bigint',
  body: 'json text',
};
