import { Kysely, PostgresDialect } from 'kysely';
import { Pool, PoolConfig, types } from 'pg';
import { Database } from './schema';

// bigint columns hold ms timestamps and sequence numbers, all far below 2^53.
types.setTypeParser(types.builtins.INT8, (v) => Number(v));

export type Db = Kysely<Database>;

export function createDb(connectionString: string, pool: Partial<PoolConfig> = {}): Db {
  return new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: new Pool({ connectionString, max: 10, ...pool }),
    }),
  });
}
