import type { NodeRecord } from './node';

/**
 * A NodeRecord as version rows stored it (`rec`, jsonb) until migration 0017 replaced it with the
 * public JSON: the record with its shape's version `v`. Records stored before the tag existed
 * have no `v` (version 0). Only that migration still reads them.
 */
export type StoredNodeRecord = { readonly v?: number } & { readonly [field: string]: unknown };

type Fields = Record<string, unknown>;

/** Each step lifts a stored record from version i to i + 1 (see 0004_node_record_version). */
export const NODE_RECORD_UPGRADES: readonly ((rec: Fields) => Fields)[] = [
  // 0 -> 1: rows written before the tag have the same fields
  (rec) => rec,
  // 1 -> 2: usage (issue 31); nodes stored before it reported none
  (rec) => ({ ...rec, usage: null, descendantUsage: null }),
];

/** The version of the shape this code writes. */
export const NODE_RECORD_VERSION = NODE_RECORD_UPGRADES.length;

/** The record as a version row stores it. */
export const toStoredNodeRecord = (rec: NodeRecord): StoredNodeRecord => ({
  v: NODE_RECORD_VERSION,
  ...rec,
});

/** The record a version row stores, upgraded from the version it was written in. */
export function fromStoredNodeRecord(
  stored: StoredNodeRecord,
  upgrades: readonly ((rec: Fields) => Fields)[] = NODE_RECORD_UPGRADES,
): NodeRecord {
  const { v = 0, ...rec } = stored;
  if (v > upgrades.length)
    throw new Error(`A node record of version ${v} is newer than this code (${upgrades.length}).`);
  let out: Fields = rec;
  for (let from = v; from < upgrades.length; from++) out = upgrades[from]!(out);
  return out as unknown as NodeRecord;
}
