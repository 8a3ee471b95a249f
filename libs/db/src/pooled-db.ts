import { Kysely } from 'kysely';
import type { Pool } from 'pg';
import { namedStatementDialect } from './named-statement-driver';
import type { Database } from './schema';

/**
 * Which calls of a BatchedStatement share one statement: any (`database`), or only calls about
 * one graph (`graph`: each statement stays on one shard of a database distributed by graph).
 */
export type BatchScope = 'database' | 'graph';

/**
 * A Db over pg pools (createDb, ReplicaRouting): it runs named statements as named, and says
 * where its statements run now and how its batched reads group (BatchedStatement).
 */
export class PooledDb extends Kysely<Database> {
  constructor(
    /** The pool a statement runs on now: its own, or the one ReplicaRouting chose for the request. */
    readonly pool: () => Pool,
    readonly batchScope: BatchScope,
    /** What `destroy` does: end the pool, or nothing for a Db over pools owned by others. */
    end: () => Promise<void>,
  ) {
    super({ dialect: namedStatementDialect(pool, end) });
  }
}
