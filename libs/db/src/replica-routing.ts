import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresDialect } from 'kysely';
import type { Pool } from 'pg';
import { createDb, Db, DbOptions } from './connection';
import { batchScopeOf, poolOf, registerPool } from './prepared-statement';
import { Database } from './schema';

/**
 * One Db over a primary and its streaming replicas: each async context (a request) reads from the
 * database chosen for it with `run`, anything else from the primary. The replicas' own Dbs serve
 * checks of how far each has replayed.
 */
export class ReplicaRouting {
  readonly db: Db;
  readonly replicas: Db[];
  private readonly chosen = new AsyncLocalStorage<Pool>();

  constructor(
    readonly primary: Db,
    replicaUrls: string[],
    options: DbOptions = {},
  ) {
    this.replicas = replicaUrls.map((url) =>
      createDb(url, { batchScope: batchScopeOf(primary), ...options }),
    );
    const current = () => this.chosen.getStore() ?? poolOf(primary)!;
    const routed = {
      connect: () => current().connect(),
      query: (...args: unknown[]) => (current().query as (...a: unknown[]) => unknown)(...args),
      end: async () => undefined, // each Db is closed by its owner (close())
    } as unknown as Pool;
    this.db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: routed }) });
    registerPool(this.db, routed, { current, batchScope: batchScopeOf(primary) });
  }

  /** Runs `fn` (and everything it starts) reading from `db`: the primary or one of `replicas`. */
  run<T>(db: Db, fn: () => T): T {
    return this.chosen.run(poolOf(db)!, fn);
  }

  /** Closes the replicas' pools (the primary's belongs to whoever made it). */
  async close(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.destroy()));
  }
}
