import {
  fromStoredNodeRecord,
  type NodeRecord,
  type NodeState,
  type StoredNodeRecord,
} from '@graph-history/domain';

/** A node version as its stored JSON (or record, on older rows) with what `stale` is judged by. */
export type NodeJsonOrRecord = { state: NodeState; lastEvent: number } & (
  { json: string; rec: null } | { json: null; rec: NodeRecord }
);

/** The columns a statement reads a version as: `rec` only where `node_json` is null. */
export interface NodeJsonColumns {
  node_json: string | null;
  rec: StoredNodeRecord | null;
  node_state: string | null;
  node_last_event: number | null;
}

/** The version the columns hold; null when they hold none (a left join that found nothing). */
export function nodeJsonOrRecord(r: NodeJsonColumns): NodeJsonOrRecord | null {
  if (r.node_state === null || r.node_last_event === null) return null;
  const at = { state: r.node_state as NodeState, lastEvent: r.node_last_event };
  return r.node_json === null
    ? { ...at, json: null, rec: fromStoredNodeRecord(r.rec!) }
    : { ...at, json: r.node_json, rec: null };
}
