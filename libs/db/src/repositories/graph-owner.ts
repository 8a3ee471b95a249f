import type { Db } from '../connection';

/** Who holds a graph key: its internal graph id and owning account. */
export interface GraphKeyOwner {
  graphId: number;
  accountId: number;
}

/**
 * The owner of `graphKey` from graph_directory (a reference table under Citus), or null. It never
 * changes once claimed, so statements on the graph's shard take its id as a value from here.
 */
export async function graphOwner(db: Db, graphKey: string): Promise<GraphKeyOwner | null> {
  const row = await db
    .selectFrom('graph_directory')
    .select(['graph_id', 'account_id'])
    .where('graph_key', '=', graphKey)
    .executeTakeFirst();
  return row ? { graphId: row.graph_id, accountId: row.account_id } : null;
}
