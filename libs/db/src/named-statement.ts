import { CompiledQuery, type RawBuilder } from 'kysely';
import type { Pool, PoolClient } from 'pg';
import type { Db } from './connection';

const MARK = '/* statement ';
const MARK_END = ' */';

/**
 * Runs `query` as the named prepared statement `name`: Postgres parses, analyzes and plans it once
 * per connection instead of on every call (for the apply's commit, a large statement, that was a
 * tenth of Postgres's CPU per applied event). The query's SQL text must be the same on every call
 * (only its parameters vary): pg refuses a second text under one name. Kysely passes no statement
 * name to pg, so the name travels in a leading comment that the pools of createDb read (see
 * nameMarkedStatements); on another Db the comment is only a comment and the query runs unnamed.
 */
export function executeNamed<R>(db: Db, name: string, query: RawBuilder<R>): Promise<R[]> {
  const { sql, parameters } = query.compile(db);
  return db
    .executeQuery<R>(CompiledQuery.raw(`${MARK}${name}${MARK_END}\n${sql}`, [...parameters]))
    .then((result) => result.rows);
}

type Query = PoolClient['query'];

/** Makes each client of `pool` send a query marked by executeNamed as its named statement. */
export function nameMarkedStatements(pool: Pool): void {
  pool.on('connect', (client) => {
    const query = client.query as (...args: unknown[]) => unknown;
    client.query = function (this: PoolClient, ...args: unknown[]) {
      const [text, values] = args;
      if (typeof text === 'string' && text.startsWith(MARK)) {
        const name = text.slice(MARK.length, text.indexOf(MARK_END, MARK.length));
        return query.call(this, { name, text, values });
      }
      return query.apply(this, args);
    } as Query;
  });
}
