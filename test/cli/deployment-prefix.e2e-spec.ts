import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { deleteKeysMatching } from '../support/redis-keys';
import { freePort } from '../support/free-port';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { startService } from './support/start-process';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function keysUnder(prefix: string): Promise<string[]> {
  const redis = new Redis(REDIS_URL);
  try {
    return await redis.keys(`${prefix}:*`);
  } finally {
    redis.disconnect();
  }
}

/** Two clones sharing one Redis without QUEUE_PREFIX: each deployment keeps its own keys. */
describe('the default QUEUE_PREFIX of a local start', () => {
  const clones: { t: TestDatabase; dataDir: string }[] = [];
  const prefixes: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      clones.push({
        t: await createTestDatabase(),
        dataDir: mkdtempSync(path.join(tmpdir(), 'gh-prefix-')),
      });
    }
  });
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeysMatching(REDIS_URL, `${prefix}:*`);
    for (const { t, dataDir } of clones) {
      await t.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('differs per deployment, and its API and ingestor both use it', async () => {
    for (const { t, dataDir } of clones) {
      const port = String(await freePort());
      const service = await startService({
        PATH: process.env.PATH,
        DATABASE_URL: t.url,
        REDIS_URL,
        PORT: port,
        INGEST_PORT: String(await freePort()),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      });
      try {
        const { queuePrefix } = JSON.parse(
          readFileSync(path.join(dataDir, 'service.json'), 'utf8'),
        ) as { queuePrefix: string };
        prefixes.push(queuePrefix);
        expect(queuePrefix).toMatch(/^gh-[0-9a-f]{12}$/);
        const key = readFileSync(path.join(dataDir, 'demo-key'), 'utf8').trim();
        const read = await fetch(`http://127.0.0.1:${port}/api/v1/graphs`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(read.status).toBe(200);
        let keys: string[] = [];
        for (let i = 0; i < 40 && !keys.some((k) => k.includes(':apply')); i++) {
          await new Promise((r) => setTimeout(r, 250));
          keys = await keysUnder(queuePrefix);
        }
        expect(keys.some((k) => k.includes(':apply'))).toBe(true); // the ingestor's queues
        expect(keys.some((k) => k.startsWith(`${queuePrefix}:rl:`))).toBe(true); // the API's limits
      } finally {
        service.child.kill('SIGINT');
        await service.exited;
      }
    }
    expect(prefixes[0]).not.toBe(prefixes[1]);
  });
});
