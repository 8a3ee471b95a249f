import { Client } from 'pg';
import { createDb, migrateToLatest } from '@graph-history/db';
import { TEMPLATE_DB, withDatabase } from './support/database-url';

type Stoppable = { stop(): Promise<unknown> };
declare global {
  var __GH_CONTAINERS__: Stoppable[] | undefined;
}

/**
 * Uses DATABASE_URL / REDIS_URL when set (CI, this machine); otherwise starts Postgres and Redis
 * with Testcontainers. Then builds one migrated template database that each test file clones.
 */
export default async function globalSetup(): Promise<void> {
  const containers: Stoppable[] = [];
  if (!process.env.DATABASE_URL) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const pg = await new PostgreSqlContainer('postgres:15').start();
    containers.push(pg);
    process.env.DATABASE_URL = pg.getConnectionUri();
  }
  if (!process.env.REDIS_URL) {
    const { RedisContainer } = await import('@testcontainers/redis');
    const redis = await new RedisContainer('redis:7').start();
    containers.push(redis);
    process.env.REDIS_URL = redis.getConnectionUrl();
  }
  globalThis.__GH_CONTAINERS__ = containers;

  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const db = createDb(withDatabase(process.env.DATABASE_URL!, TEMPLATE_DB), { max: 1 });
  try {
    await migrateToLatest(db);
    // every test database is a clone of the template, so it holds this id key (test/id-key.ts)
    const { key } = await db.selectFrom('id_key').select('key').executeTakeFirstOrThrow();
    process.env.GH_TEST_ID_KEY = key.toString('hex');
  } finally {
    await db.destroy();
  }
}
