import { Config } from '@graph-history/config';
import { createDb, Db, resolveDatabaseUrl, stopEmbeddedPostgres } from '@graph-history/db';
import { CliError } from './cli-error';

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  '28P01',
  '28000',
  '3D000',
]);

/** Runs `fn` with a database connection (embedded Postgres when DATABASE_URL is unset), then closes it. */
export async function withDatabase<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const url = await resolveDatabaseUrl(config).catch((err: Error) => {
    throw new CliError(err.message);
  });
  const db = createDb(url, { max: 2 });
  try {
    return await fn(db);
  } catch (err) {
    throw databaseRefused(err, url) ?? err;
  } finally {
    await db.destroy();
    await stopEmbeddedPostgres();
  }
}

/** A one-line CliError when `err` says the database at `url` cannot be reached or refuses us. */
export function databaseRefused(err: unknown, url: string): CliError | null {
  const code = (err as { code?: string }).code;
  if (!code || !UNREACHABLE.has(code)) return null;
  return new CliError(
    `Postgres at ${new URL(url).host} refused the connection (${(err as Error).message}): start it or fix DATABASE_URL, or unset DATABASE_URL to use the embedded Postgres.`,
  );
}
