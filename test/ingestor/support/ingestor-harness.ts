import Redis from 'ioredis';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Config, loadConfig } from '@graph-history/config';
import { Db } from '@graph-history/db';
import { TEST_METRICS_TOKEN } from '../../support/metrics-token';
import { deleteKeysMatching, testQueuePrefix } from '../../support/redis-keys';
import { createIngestorApp } from '../../../apps/ingestor/src/create-ingestor-app';

/** A queue prefix of its own, so that tests sharing a Redis server never see each other's jobs. */
export const uniqueQueuePrefix = testQueuePrefix;

export function testConfig(
  databaseUrl: string,
  queuePrefix: string,
  env: NodeJS.ProcessEnv = {},
): Config {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL,
    QUEUE_PREFIX: queuePrefix,
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...env,
  });
}

export interface TestResponse {
  statusCode: number;
  headers: Headers;
  body: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface RunningIngestor {
  app: NestFastifyApplication;
  baseUrl: string;
  request(
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: string },
  ): Promise<TestResponse>;
  close(): Promise<void>;
}

/**
 * The ingestor app in this process, listening on a free 127.0.0.1 port (real HTTP: Fastify's
 * inject depends on an ESM-only package Jest cannot load).
 */
export async function startIngestor(
  db: Db,
  databaseUrl: string,
  queuePrefix: string,
  runWorkers: boolean,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningIngestor> {
  const app = await createIngestorApp({
    config: testConfig(databaseUrl, queuePrefix, env),
    db,
    runWorkers,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = await app.getUrl();
  return {
    app,
    baseUrl,
    async request(method, path, options = {}) {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: options.headers,
        body: options.body,
      });
      const body = await res.text();
      return { statusCode: res.status, headers: res.headers, body, json: () => JSON.parse(body) };
    },
    close: () => app.close(),
  };
}

/** Deletes every Redis key of the queue prefix (never the whole server: it is shared). */
export const deleteQueueKeys = (queuePrefix: string): Promise<number> =>
  deleteKeysMatching(process.env.REDIS_URL!, `${queuePrefix}:*`);

/** How many jobs BullMQ holds as active in a queue of the prefix (a dead worker's stay there). */
export async function activeJobs(queuePrefix: string, queue: string): Promise<number> {
  const redis = new Redis(process.env.REDIS_URL!);
  try {
    return await redis.llen(`${queuePrefix}:${queue}:active`);
  } finally {
    redis.disconnect();
  }
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
