import { CompiledQuery } from 'kysely';
import type { Pool, QueryResultRow } from 'pg';
import type { Db } from './connection';

const pools = new WeakMap<Db, Pool>();
const names = new Set<string>();

/** Called by createDb: the pg pool behind a Db, which runs its prepared statements. */
export function registerPool(db: Db, pool: Pool): void {
  pools.set(db, pool);
}

/**
 * A hot read statement that Postgres parses and plans once per pooled connection (a named
 * prepared statement) instead of on every call as it does for Kysely's queries: for small,
 * index-only lookups planning costs several times the execution. `text` uses $1… placeholders
 * and must never change for a name (pg refuses a second text under a name on a connection).
 * On a Db that createDb did not make, the statement runs unprepared through Kysely.
 */
export class PreparedStatement<R extends QueryResultRow> {
  constructor(
    readonly name: string,
    readonly text: string,
  ) {
    if (names.has(name)) throw new Error(`Two prepared statements are named ${name}.`);
    names.add(name);
  }

  async rows(db: Db, values: unknown[]): Promise<R[]> {
    const pool = pools.get(db);
    if (!pool) return (await db.executeQuery<R>(CompiledQuery.raw(this.text, values))).rows;
    return (await pool.query<R>({ name: this.name, text: this.text, values })).rows;
  }
}
