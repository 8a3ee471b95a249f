import DataLoader from 'dataloader';
import type { Pool } from 'pg';
import type { Db } from './connection';
import { PooledDb } from './pooled-db';
import { ArgTypes, ArgValues, PreparedStatement } from './prepared-statement';

/** At most this many calls go into one statement. */
const MAX_BATCH = 100;

/** The two forms of a batched read: over items of any graphs, and over items of one graph. */
export interface BatchedForms<S extends ArgTypes, R> {
  /** Each item names its graph (`graph_id` from the arrays). */
  anyGraph: PreparedStatement<S, R>;
  /** Every item is of the graph the argument `graph` names, the only value of `graph_id`. */
  oneGraph: PreparedStatement<S, R>;
}

/**
 * One prepared statement over arrays that answers many calls at once: the calls made while the
 * event loop reads the requests that arrived together (until its check phase, `setImmediate`) run
 * as ONE statement, each item a row of the arrays (see batchRows). A single-row read costs pg and
 * Postgres far more per statement (a round trip, its messages, the executor's start and end) than
 * per row, and a busy API has many such reads in flight at any moment. `args` turns the items
 * into the statement's arguments; each result row carries `i`, the 1-based position of its item
 * (an item without a row gets null). Calls on a PooledDb are batched per pool, so a request routed
 * to a replica (ReplicaRouting) is read there, and, on a Db whose batch scope is `graph`, per
 * graph: the `oneGraph` form then pins `graph_id` to one value, so a database distributed by graph
 * (Citus) sends each statement to one shard. On any other Db (a transaction) each call runs alone.
 */
export class BatchedStatement<I, S extends ArgTypes, R extends { i: number }> {
  /** Per pool, the batch being gathered for each graph (or for all, under `database`). */
  private readonly gathering = new WeakMap<Pool, Map<number, DataLoader<I, R | null>>>();

  constructor(
    private readonly forms: BatchedForms<S, R>,
    private readonly args: (items: readonly I[]) => ArgValues<S>,
    private readonly graphOf: (item: I) => number,
  ) {}

  /** The row of `item`, or null when the statement gave none. */
  load(db: Db, item: I): Promise<R | null> {
    if (!(db instanceof PooledDb)) {
      return this.run(this.forms.anyGraph, db, [item]).then(([row]) => row ?? null);
    }
    const pool = db.pool();
    const oneGraph = db.batchScope === 'graph';
    const statement = oneGraph ? this.forms.oneGraph : this.forms.anyGraph;
    let batches = this.gathering.get(pool);
    if (!batches) this.gathering.set(pool, (batches = new Map()));
    const key = oneGraph ? this.graphOf(item) : 0;
    let batch = batches.get(key);
    if (!batch) {
      const gathered = new DataLoader<I, R | null>(
        (items) => {
          // from now on, calls gather into a new batch
          if (batches.get(key) === gathered) batches.delete(key);
          return this.run(statement, db, items);
        },
        // runs in the async context of the batch's first call, where `db` reads from `pool`
        { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => setImmediate(run) },
      );
      batches.set(key, (batch = gathered));
    }
    return batch.load(item);
  }

  private async run(
    statement: PreparedStatement<S, R>,
    db: Db,
    items: readonly I[],
  ): Promise<(R | null)[]> {
    const rows = await statement.rows(db, this.args(items));
    const byItem: (R | null)[] = items.map(() => null);
    for (const row of rows) byItem[row.i - 1] = row;
    return byItem;
  }
}
