import DataLoader from 'dataloader';
import type { Pool } from 'pg';
import type { Db } from './connection';
import { ArgTypes, ArgValues, currentPool, PreparedStatement } from './prepared-statement';

/** At most this many calls go into one statement. */
const MAX_BATCH = 100;

/**
 * One prepared statement over arrays that answers many calls at once: the calls made while the
 * event loop reads the requests that arrived together (until its check phase, `setImmediate`) run
 * as ONE statement, each item a row of the arrays (see batchRows). A single-row read costs pg and
 * Postgres far more per statement (a round trip, its messages, the executor's start and end) than
 * per row, and a busy API has many such reads in flight at any moment. `args` turns the items into
 * the statement's arguments; each result row carries `i`, the 1-based position of its item (an item
 * without a row gets null). Calls are batched per pool, so a request routed to a replica
 * (ReplicaRouting) is read there.
 */
export class BatchedStatement<I, S extends ArgTypes, R extends { i: number }> {
  private readonly loaders = new WeakMap<Pool, DataLoader<I, R | null>>();

  constructor(
    private readonly statement: PreparedStatement<S, R>,
    private readonly args: (items: readonly I[]) => ArgValues<S>,
  ) {}

  /** The row of `item`, or null when the statement gave none. */
  load(db: Db, item: I): Promise<R | null> {
    const pool = currentPool(db);
    if (!pool) return this.statement.rows(db, this.args([item])).then((rows) => rows[0] ?? null);
    let loader = this.loaders.get(pool);
    if (!loader) {
      loader = new DataLoader((items) => this.run(pool, items), {
        cache: false,
        maxBatchSize: MAX_BATCH,
        batchScheduleFn: (run) => setImmediate(run),
      });
      this.loaders.set(pool, loader);
    }
    return loader.load(item);
  }

  private async run(pool: Pool, items: readonly I[]): Promise<(R | null)[]> {
    const rows = await this.statement.rowsOn(pool, this.args(items));
    const byItem: (R | null)[] = items.map(() => null);
    for (const row of rows) byItem[row.i - 1] = row;
    return byItem;
  }
}
