import { Db } from '@graph-history/db';

type GraphTable = 'inbox' | 'event_keys' | 'events' | 'node_versions' | 'task_snapshots';

/** How many rows of a graph-scoped table belong to the graph. */
export const rowCount = (db: Db, table: GraphTable, graphId: number): Promise<number> =>
  db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('graph_id', '=', graphId)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
