import { Client } from 'pg';
import { TEMPLATE_DB, TEST_DB_PREFIX } from './support/database-url';
import { deleteTestRedisKeys } from './support/redis-keys';

/**
 * Leaves nothing behind on shared servers: drops the template and any per-test database of this
 * checkout (a test file that crashed may have left one), deletes this checkout's Redis keys, then
 * stops the containers global-setup started.
 */
export default async function globalTeardown(): Promise<void> {
  if (process.env.DATABASE_URL) {
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname = $1 or starts_with(datname, $2)`,
        [TEMPLATE_DB, TEST_DB_PREFIX],
      );
      for (const { datname } of rows) {
        await admin.query(
          `DROP DATABASE IF EXISTS ${admin.escapeIdentifier(datname)} WITH (FORCE)`,
        );
      }
    } finally {
      await admin.end();
    }
  }
  if (process.env.REDIS_URL) await deleteTestRedisKeys(process.env.REDIS_URL);
  for (const c of globalThis.__GH_CONTAINERS__ ?? []) await c.stop();
}
