import { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createDb, migrateToLatest } from '@graph-history/db';
import { createKey } from '../../test/ingestor/support/api-keys';
import { benchDatabase, dropDatabase, recreateDatabase } from './bench-database';
import { freePort, startServer, stopServer } from './child-server';

const ROOT = path.resolve(__dirname, '../..');

/** The built ingestor and API on 127.0.0.1, and a secret key of the bench's account. */
export interface BenchStack {
  ingestUrl: string;
  apiUrl: string;
  secret: string;
  /** `Authorization` header value. */
  auth: string;
}

export interface StackOptions {
  /** Variable naming the bench's database, and the name used without it. */
  databaseEnv: string;
  databaseName: string;
  account: string;
  queuePrefix: string;
  /** Settings of the ingestor only. */
  ingestEnv?: Record<string, string>;
}

/**
 * Runs `body` against a fresh, migrated bench database served by the built ingestor and API;
 * then stops both and drops the database.
 */
export async function withIngestAndApi(
  o: StackOptions,
  body: (stack: BenchStack) => Promise<void>,
): Promise<void> {
  const bench = benchDatabase(o.databaseEnv, o.databaseName);
  await recreateDatabase(bench.name);
  const db = createDb(bench.url, { max: 2 });
  const children: ChildProcess[] = [];
  try {
    await migrateToLatest(db);
    const key = await createKey(db, o.account);
    const [ingestPort, apiPort] = [await freePort(), await freePort()];
    const env = { DATABASE_URL: bench.url, QUEUE_PREFIX: o.queuePrefix, LOG_LEVEL: 'warn' };
    children.push(
      await startServer(
        [path.join(ROOT, 'apps/ingestor/dist/main.js')],
        { ...env, INGEST_PORT: String(ingestPort), ...o.ingestEnv },
        `http://127.0.0.1:${ingestPort}/readyz`,
      ),
    );
    children.push(
      await startServer(
        [path.join(ROOT, 'apps/api/dist/main.js')],
        { ...env, PORT: String(apiPort), HOST: '127.0.0.1' },
        `http://127.0.0.1:${apiPort}/healthz`,
      ),
    );
    await body({
      ingestUrl: `http://127.0.0.1:${ingestPort}`,
      apiUrl: `http://127.0.0.1:${apiPort}`,
      secret: key.key,
      auth: key.auth,
    });
  } finally {
    for (const child of children) await stopServer(child);
    await db.destroy();
    await dropDatabase(bench.name);
  }
}
