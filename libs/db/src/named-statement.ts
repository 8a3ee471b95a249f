import { CompiledQuery } from 'kysely';
import type { Db } from './connection';

/** A compiled query that runs as the named prepared statement `name` (see named). */
export interface NamedQuery extends CompiledQuery {
  readonly name: string;
}

/**
 * `query` as the named prepared statement `name`: on a Db of createDb, each connection has
 * Postgres parse, analyze and plan it once, then runs it with each call's parameters, in or out
 * of a transaction. Its SQL text must be the same on every call (only its parameters vary): pg
 * refuses a second text under one name on a connection. Any other Db runs it unnamed.
 */
export const named = (
  name: string,
  query: { sql: string; parameters: readonly unknown[] },
): NamedQuery => ({ ...CompiledQuery.raw(query.sql, query.parameters as unknown[]), name });

/** The rows of `query` run as the named statement `name` on `db` (see named). */
export const executeNamed = <R>(
  db: Db,
  name: string,
  query: { compile(db: Db): CompiledQuery<R> },
): Promise<R[]> => db.executeQuery<R>(named(name, query.compile(db))).then((r) => r.rows);
