import type { Kysely } from 'kysely';
import { Pool, PoolConfig, types, type CustomTypesConfig } from 'pg';
import { BatchScope, PooledDb } from './pooled-db';
import { Database } from './schema';

/**
 * This pool's type parsers: bigint columns hold ms timestamps and sequence numbers, all far below
 * 2^53, so they come back as numbers (pg's global parsers stay untouched).
 */
const pgTypes: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === types.builtins.INT8 && format !== 'binary'
      ? (v: string) => Number(v)
      : types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

export type Db = Kysely<Database>;

/** How long a query waits for a connection (a new one, or a free one of a busy pool). */
const CONNECT_TIMEOUT_MS = 10_000;

export interface DbOptions extends Partial<PoolConfig> {
  /**
   * Called when a pooled connection fails (e.g. Postgres restarted), once per outage: again only
   * after a new connection has been made. The pool replaces failed connections.
   */
  onConnectionLost?: (err: Error) => void;
  /** Which calls of a BatchedStatement share one statement (default: any). */
  batchScope?: BatchScope;
}

const logConnectionLost = (err: Error): void => {
  process.stderr.write(
    `postgres: connection lost (${err.message}); reconnecting as work asks for connections\n`,
  );
};

export function createDb(connectionString: string, options: DbOptions = {}): PooledDb {
  const { onConnectionLost = logConnectionLost, batchScope = 'database', ...pool } = options;
  const pgPool = new Pool({
    connectionString,
    max: 10,
    types: pgTypes,
    // an unreachable server fails a request (503) instead of holding it; keepalives find dead peers
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    ...pool,
  });
  reportLostConnections(pgPool, onConnectionLost);
  return new PooledDb(
    () => pgPool,
    batchScope,
    () => pgPool.end(),
  );
}

/**
 * Without a listener, a connection's 'error' event crashes the process. pg-pool listens only on
 * idle connections (and re-emits on the pool); a checked-out one (a transaction, the apply's
 * locked session) gets a listener here: the statement in flight fails with the same error and
 * whoever ran it handles it, and the pool discards the broken connection when it is released.
 */
function reportLostConnections(pool: Pool, report: (err: Error) => void): void {
  let connected = true;
  const lost = (err: Error) => {
    if (!connected) return;
    connected = false;
    report(err);
  };
  pool.on('error', lost);
  pool.on('connect', (client) => {
    connected = true;
    client.on('error', lost);
  });
}
