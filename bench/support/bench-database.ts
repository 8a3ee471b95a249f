import { withDatabase } from '../../test/support/database-url';
import { admin } from '../../test/support/test-database';

/** A bench's own database on the server of DATABASE_URL (named so parallel checkouts can differ). */
export function benchDatabase(envName: string, fallback: string): { name: string; url: string } {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    process.stderr.write(
      'Set DATABASE_URL to a Postgres server where the bench may create its own database.\n',
    );
    process.exit(1);
  }
  const name = process.env[envName] ?? fallback;
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`${envName} must be a plain database name`);
  return { name, url: withDatabase(serverUrl, name) };
}

export const databaseExists = (name: string): Promise<boolean> =>
  admin(async (c) => {
    const r = await c.query('select 1 from pg_database where datname = $1', [name]);
    return r.rowCount === 1;
  });

export const dropDatabase = (name: string): Promise<void> =>
  admin(async (c) => void (await c.query(`drop database if exists ${name} with (force)`)));

export async function recreateDatabase(name: string): Promise<void> {
  await dropDatabase(name);
  await admin(async (c) => void (await c.query(`create database ${name}`)));
}
