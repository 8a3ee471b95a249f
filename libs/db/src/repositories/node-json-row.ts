import { nodeRecordFromJson, type NodeRecord, type NodeState } from '@graph-history/domain';
import { sql } from 'kysely';

/** A node version as its stored JSON, with what `stale` is judged by. */
export interface NodeJson {
  json: string;
  state: NodeState;
  lastEvent: number;
}

/** The node version the columns hold; null when they hold none (a left join that found nothing). */
export function nodeJsonOf(r: {
  node_json: string | null;
  node_state: string | null;
  node_last_event: number | null;
}): NodeJson | null {
  if (r.node_json === null || r.node_state === null || r.node_last_event === null) return null;
  return { json: r.node_json, state: r.node_state as NodeState, lastEvent: r.node_last_event };
}

/** The columns a statement reads a version's record as (see recordColumns). */
export interface NodeRecordColumns {
  node_json: string;
  sort_key: string;
  created_seq: number;
}

/** The record of a version row read through recordColumns. */
export const recordOf = (r: NodeRecordColumns): NodeRecord =>
  nodeRecordFromJson(r.node_json, r.sort_key, r.created_seq);

/** The selections of a version's record from the version row aliased `v` (see recordOf). */
export function recordColumns(v: string) {
  const col = (c: string) => sql.ref(`${v}.${c}`);
  return [
    sql<string>`${col('public_json')}`.as('node_json'),
    sql<string>`${col('sort_key')}`.as('sort_key'),
    sql<number>`${col('created_seq')}`.as('created_seq'),
  ] as const;
}

/** What recordColumns selects, by name: for an outer query over a subquery that selected them. */
export const RECORD_COLUMNS = ['node_json', 'sort_key', 'created_seq'] as const;
