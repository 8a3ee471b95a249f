import { AsyncLocalStorage } from 'node:async_hooks';
import { createDb, DbOptions } from './connection';
import { PooledDb } from './pooled-db';

/**
 * One Db over a primary and its streaming replicas: each async context (a request) reads from the
 * database chosen for it with `run`, anything else from the primary. The replicas' own Dbs serve
 * checks of how far each has replayed.
 */
export class ReplicaRouting {
  readonly db: PooledDb;
  readonly replicas: PooledDb[];
  private readonly chosen = new AsyncLocalStorage<PooledDb>();

  constructor(
    readonly primary: PooledDb,
    replicaUrls: string[],
    options: DbOptions = {},
  ) {
    const { batchScope } = primary;
    this.replicas = replicaUrls.map((url) => createDb(url, { batchScope, ...options }));
    // each Db is closed by its owner (close())
    const current = () => (this.chosen.getStore() ?? primary).pool();
    this.db = new PooledDb(current, batchScope, async () => undefined);
  }

  /** Runs `fn` (and everything it starts) reading from `db`: the primary or one of `replicas`. */
  run<T>(db: PooledDb, fn: () => T): T {
    return this.chosen.run(db, fn);
  }

  /** Closes the replicas' pools (the primary's belongs to whoever made it). */
  async close(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.destroy()));
  }
}
