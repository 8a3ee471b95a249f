/**
 * `pnpm sql:sync`: writes libs/db/sql/<repository>.sql, the SQL every repository method sends,
 * from the @GenerateSql examples run on a fresh migrated database of the server of DATABASE_URL.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDb } from '../src/connection';
import { migrateToLatest } from '../src/migrate';
import { generateSqlText, SQL_DIR } from '../src/sql-text/sql-text';

async function admin(url: string, statement: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  const server = process.env.DATABASE_URL;
  if (!server)
    throw new Error('Set DATABASE_URL to a Postgres server where a database can be made.');
  const name = `gh_sql_sync_${process.pid}`;
  const url = new URL(server);
  url.pathname = `/${name}`;
  await admin(server, `CREATE DATABASE ${name}`);
  try {
    const db = createDb(url.toString(), { max: 1 });
    await migrateToLatest(db).finally(() => db.destroy());
    const { files, failed } = await generateSqlText(url.toString());
    for (const f of failed) process.stderr.write(`example failed: ${f}\n`);
    mkdirSync(SQL_DIR, { recursive: true });
    for (const old of readdirSync(SQL_DIR)) if (!files.has(old)) rmSync(join(SQL_DIR, old));
    for (const [file, text] of files) writeFileSync(join(SQL_DIR, file), text);
    process.stdout.write(`wrote ${files.size} files to ${SQL_DIR}\n`);
  } finally {
    await admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
