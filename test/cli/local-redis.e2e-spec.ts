import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { CliError } from '@graph-history/cli/cli-error';
import { localRedis } from '@graph-history/cli/start/local-redis';
import { freePort } from '../support/free-port';

const ping = async (url: string): Promise<string> => {
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await client.ping();
  } catch {
    return 'unreachable';
  } finally {
    client.disconnect();
  }
};

describe('the Redis `start` uses', () => {
  let dir: string;
  let silent: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gh-redis-'));
    silent = `redis://127.0.0.1:${await freePort()}`;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is REDIS_URL when set and answering, and is not stopped by start', async () => {
    const r = await localRedis({
      env: { REDIS_URL: process.env.REDIS_URL },
      port: await freePort(),
      dir,
      defaultUrl: silent,
    });
    expect(r).toMatchObject({ url: process.env.REDIS_URL, startedHere: false });
  });

  it('is the one answering on the default address when REDIS_URL is unset', async () => {
    const r = await localRedis({
      env: {},
      port: await freePort(),
      dir,
      defaultUrl: process.env.REDIS_URL,
    });
    expect(r).toMatchObject({ url: process.env.REDIS_URL, startedHere: false });
  });

  it('is a redis-server from the PATH, on 127.0.0.1 with its files under DATA_DIR/redis, stopped on stop()', async () => {
    const port = await freePort();
    const redisDir = path.join(dir, 'redis');
    const r = await localRedis({
      env: { PATH: process.env.PATH },
      port,
      dir: redisDir,
      defaultUrl: silent,
    });
    try {
      expect(r).toMatchObject({ url: `redis://127.0.0.1:${port}`, startedHere: true });
      expect(await ping(r.url)).toBe('PONG');
      // A second start while it runs reuses it.
      const again = await localRedis({
        env: { PATH: '' },
        port,
        dir: redisDir,
        defaultUrl: silent,
      });
      expect(again).toMatchObject({ url: r.url, startedHere: false });
    } finally {
      await r.stop();
    }
    expect(await ping(r.url)).toBe('unreachable');
    expect(existsSync(path.join(redisDir, 'dump.rdb'))).toBe(true);
  });

  it('says in one line how to get one when none answers and no redis-server is on the PATH', async () => {
    const err = (await localRedis({
      env: { PATH: dir },
      port: await freePort(),
      dir,
      defaultUrl: silent,
    }).catch((e: unknown) => e)) as CliError;
    expect(err).toBeInstanceOf(CliError);
    expect(err.message.split('\n')).toHaveLength(1);
    expect(err.message).toMatch(
      /^Redis is not running on 127\.0\.0\.1:\d+ and no redis-server is on the PATH: install it \(`(apt-get install redis-server|dnf install redis|apk add redis|brew install redis)`\) and run `pnpm start` again, or run `docker compose up -d redis`, or set REDIS_URL\.$/,
    );
  });
});
