import { Kysely, PostgresDialect } from 'kysely';
import { Pool, PoolConfig, types, type CustomTypesConfig } from 'pg';
import { nameMarkedStatements } from './named-statement';
import { BatchScope, registerPool } from './prepared-statement';
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

export interface DbOptions extends Partial<PoolConfig> {
  /** Called when an idle pooled connection fails (e.g. Postgres restarted); the pool replaces it. */
  onIdleError?: (err: Error) => void;
  /** Which calls of a BatchedStatement share one statement (default: any). */
  batchScope?: BatchScope;
}

const logIdleError = (err: Error): void => {
  process.stderr.write(`postgres: idle connection lost (${err.message}); it will be replaced\n`);
};

export function createDb(connectionString: string, options: DbOptions = {}): Db {
  const { onIdleError = logIdleError, batchScope = 'database', ...pool } = options;
  const pgPool = new Pool({ connectionString, max: 10, types: pgTypes, ...pool });
  // Without a listener, an idle client's error would crash the process.
  pgPool.on('error', onIdleError);
  nameMarkedStatements(pgPool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pgPool }) });
  registerPool(db, pgPool, { batchScope });
  return db;
}
