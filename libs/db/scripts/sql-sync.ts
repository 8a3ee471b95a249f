/**
 * `pnpm sql:sync`: writes libs/db/sql/<repository>.sql, the SQL every repository method sends,
 * from the @GenerateSql examples run on a scratch database of the server of DATABASE_URL.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOnScratchDatabase } from '../src/sql-text/scratch-database';
import { SQL_DIR } from '../src/sql-text/sql-text';

async function main(): Promise<void> {
  const server = process.env.DATABASE_URL;
  if (!server) {
    throw new Error('Set DATABASE_URL to a Postgres server where a database can be made.');
  }
  const { files, failed } = await generateOnScratchDatabase(server, `gh_sql_sync_${process.pid}`);
  for (const f of failed) process.stderr.write(`example failed: ${f}\n`);
  mkdirSync(SQL_DIR, { recursive: true });
  for (const old of readdirSync(SQL_DIR)) if (!files.has(old)) rmSync(join(SQL_DIR, old));
  for (const [file, text] of files) writeFileSync(join(SQL_DIR, file), text);
  process.stdout.write(`wrote ${files.size} files to ${SQL_DIR}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
