import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDb, DbOptions, PooledDb } from '@graph-history/db';
import { TEMPLATE_DB, TEST_DB_PREFIX, withDatabase } from './database-url';

export interface TestDatabase {
  url: string;
  db: PooledDb;
  drop(): Promise<void>;
}

/** Runs `fn` on a connection to the server of DATABASE_URL (to create or drop databases). */
export async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A fresh, migrated database cloned from the template: one per test file. */
export async function createTestDatabase(options: DbOptions = {}): Promise<TestDatabase> {
  const name = `${TEST_DB_PREFIX}${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`));
  const url = withDatabase(process.env.DATABASE_URL!, name);
  const db = createDb(url, { max: 5, ...options });
  return {
    url,
    db,
    async drop() {
      await db.destroy();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
