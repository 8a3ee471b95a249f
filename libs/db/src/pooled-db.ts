import { Kysely, type CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import type { Pool } from 'pg';
import { isNamed, namedStatementDialect, resultOf } from './named-statement-driver';
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

  /**
   * A named statement goes straight to the pool, as the driver would send it on a connection of
   * the pool: Kysely's executor and connection provider cost a lone hot read a sixth of its CPU.
   */
  override executeQuery<R>(query: CompiledQuery<R> | Compilable<R>): Promise<QueryResult<R>> {
    if (!('sql' in query) || !isNamed(query)) return super.executeQuery(query);
    const { name, sql: text, parameters } = query;
    return this.pool()
      .query({ name, text, values: parameters as unknown[] })
      .then((result) => resultOf<R>(result));
  }
}
