import { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, startServer } from './child-server';

export interface IngestorAndApi {
  ingestUrl: string;
  apiUrl: string;
  api: ChildProcess;
}

/**
 * The built ingestor and API on 127.0.0.1 against the bench database and the Redis at REDIS_URL
 * (under `queuePrefix`), rate limits out of the way; `env` adds variables. Each process is pushed
 * on `children` as soon as it runs (the caller stops them in reverse, even if the next fails).
 */
export async function startIngestorAndApi(
  children: ChildProcess[],
  databaseUrl: string,
  queuePrefix: string,
  env: Record<string, string> = {},
): Promise<IngestorAndApi> {
  const shared = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    ACCOUNT_RATE_LIMIT: '1000000',
    ACCOUNT_RATE_BURST: '1000000',
    // every subscriber connects from 127.0.0.1: the per-address cap would refuse all but 256
    MAX_CLIENT_CONNECTIONS: '20000',
    INGEST_EVENTS_PER_SECOND: '1000000',
    INGEST_EVENTS_BURST: '1000000',
    ...env,
  };
  const ingestPort = await freePort();
  const apiPort = await freePort();
  const ingestUrl = `http://127.0.0.1:${ingestPort}`;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  children.push(
    await startServer(
      [path.resolve(__dirname, '../../apps/ingestor/dist/main.js')],
      { ...shared, INGEST_PORT: String(ingestPort) },
      `${ingestUrl}/readyz`,
    ),
  );
  const api = await startServer(
    [path.resolve(__dirname, '../../apps/api/dist/main.js')],
    { ...shared, PORT: String(apiPort) },
    `${apiUrl}/readyz`,
  );
  children.push(api);
  return { ingestUrl, apiUrl, api };
}
