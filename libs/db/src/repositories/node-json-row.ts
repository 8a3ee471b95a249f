import {
  storedNodeRecord,
  type NodeRecord,
  type NodeState,
  type StoredNodeRecord,
} from '@graph-history/domain';
import { sql } from 'kysely';

/** A node version as its stored JSON (or record, on older rows) with what `stale` is judged by. */
export type NodeJsonOrRecord = { state: NodeState; lastEvent: number } & (
  { json: string; rec: null } | { json: null; rec: NodeRecord }
);

/**
 * The columns a statement reads a version as: its public JSON, and `rec` only where the JSON
 * is null (or a record is asked for and the row has one); `sort_key` and `created_seq` where a
 * record is rebuilt from the JSON (see storedNodeRecord).
 */
export interface NodeJsonColumns {
  node_json: string | null;
  rec: StoredNodeRecord | null;
  sort_key?: string | null;
  created_seq?: number | null;
  node_state: string | null;
  node_last_event: number | null;
}

/**
 * The version the columns hold; null when they hold none (a left join that found nothing). As
 * its record when `objects` asks for it or the row has no JSON, else as its JSON.
 */
export function nodeJsonOrRecord(r: NodeJsonColumns, objects = false): NodeJsonOrRecord | null {
  if (r.node_state === null || r.node_last_event === null) return null;
  const state = r.node_state as NodeState;
  const lastEvent = r.node_last_event;
  // object literals, not a spread of a shared part: the spread cost ~2 µs per node read
  return r.node_json === null || objects
    ? { state, lastEvent, json: null, rec: recordOf(r) }
    : { state, lastEvent, json: r.node_json, rec: null };
}

/** The columns a statement reads a version's record as (see storedNodeRecord). */
export interface NodeRecordColumns {
  rec: StoredNodeRecord | null;
  /** The public JSON, only where `rec` is null. */
  rec_json?: string | null;
  node_json?: string | null;
  sort_key?: string | null;
  created_seq?: number | null;
}

/** The record of a version row read through recordColumns (or NodeJsonColumns). */
export const recordOf = (r: NodeRecordColumns): NodeRecord =>
  storedNodeRecord({
    rec: r.rec,
    json: r.rec_json ?? r.node_json ?? null,
    sortKey: r.sort_key ?? null,
    createdSeq: r.created_seq ?? null,
  });

/** The selections of a version's record from the version row aliased `v` (see recordOf). */
export function recordColumns(v: string) {
  const col = (c: string) => sql.ref(`${v}.${c}`);
  return [
    sql<StoredNodeRecord | null>`${col('rec')}`.as('rec'),
    sql<string | null>`case when ${col('rec')} is null then ${col('public_json')} end`.as(
      'rec_json',
    ),
    sql<string>`${col('sort_key')}`.as('sort_key'),
    sql<number | null>`${col('created_seq')}`.as('created_seq'),
  ] as const;
}

/** What recordColumns selects, by name: for an outer query over a subquery that selected them. */
export const RECORD_COLUMNS = ['rec', 'rec_json', 'sort_key', 'created_seq'] as const;
