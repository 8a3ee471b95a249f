import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { Pool, PoolClient, QueryResult as PgResult } from 'pg';
import type { NamedQuery } from './named-statement';

export const isNamed = (query: CompiledQuery): query is NamedQuery => 'name' in query;

const AFFECTING = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** Kysely's result of what pg answered. */
export const resultOf = <R>({ command, rowCount, rows }: PgResult): QueryResult<R> => ({
  numAffectedRows: AFFECTING.has(command) ? BigInt(rowCount ?? 0) : undefined,
  rows: (rows ?? []) as R[],
});

/** A pooled pg client that sends a NamedQuery with its name, anything else as an unnamed query. */
class NamedStatementConnection implements DatabaseConnection {
  constructor(readonly client: PoolClient) {}

  /** A `then` on pg's promise, not an async function: one promise turn less per statement. */
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const values = query.parameters as unknown[];
    const sent: Promise<PgResult> = isNamed(query)
      ? this.client.query({ name: query.name, text: query.sql, values })
      : this.client.query(query.sql, values);
    return sent.then((result) => resultOf<R>(result));
  }

  streamQuery(): never {
    throw new Error('Streaming queries are not supported: read in pages.');
  }
}

/**
 * Kysely's Postgres driver but for the connections it hands out (NamedStatementConnection) and
 * where they come from: `pool()` at each acquisition, the pool of the moment (see PooledDb).
 */
class NamedStatementDriver implements Driver {
  /** One connection per pg client, as Kysely's driver keeps: Kysely tracks each it is handed. */
  private readonly connections = new WeakMap<PoolClient, NamedStatementConnection>();

  constructor(
    private readonly pool: () => Pool,
    private readonly end: () => Promise<void>,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool().connect();
    let connection = this.connections.get(client);
    if (!connection)
      this.connections.set(client, (connection = new NamedStatementConnection(client)));
    return connection;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    const access = settings.accessMode ? ` ${settings.accessMode}` : '';
    await conn.executeQuery(CompiledQuery.raw(`start transaction${isolation}${access}`));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    (conn as NamedStatementConnection).client.release();
  }

  destroy(): Promise<void> {
    return this.end();
  }
}

/** Kysely's Postgres dialect on `driver`. */
export const postgresDialect = (driver: Driver): Dialect => ({
  createAdapter: () => new PostgresAdapter(),
  createDriver: () => driver,
  createIntrospector: (db) => new PostgresIntrospector(db),
  createQueryCompiler: () => new PostgresQueryCompiler(),
});

/** The dialect of PooledDb: statements on connections of `pool()`, named ones as named. */
export const namedStatementDialect = (pool: () => Pool, end: () => Promise<void>): Dialect =>
  postgresDialect(new NamedStatementDriver(pool, end));
