import { Client } from 'pg';
import { createDb } from '../connection';
import { migrateToLatest } from '../migrate';
import { generateSqlText, type GeneratedSql } from './sql-text';

async function admin(serverUrl: string, statement: string): Promise<void> {
  const c = new Client({ connectionString: serverUrl });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/**
 * generateSqlText on a new migrated database `name` of the server of `serverUrl`, dropped after.
 * Its collation is C whatever the server's default: some statements depend on whether text sorts
 * in byte order (HookKeyRepository), and the text must be the same on every server.
 */
export async function generateOnScratchDatabase(
  serverUrl: string,
  name: string,
): Promise<GeneratedSql> {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await admin(
    serverUrl,
    `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
  );
  try {
    const db = createDb(url.toString(), { max: 1 });
    await migrateToLatest(db).finally(() => db.destroy());
    return await generateSqlText(url.toString());
  } finally {
    await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
