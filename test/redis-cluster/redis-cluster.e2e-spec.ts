import { Cluster } from 'ioredis';
import { loadConfig } from '@graph-history/config';
import {
  assertRedisReachable,
  createRedisClient,
  limiterRedis,
  RedisTarget,
} from '@graph-history/http';
import { ApiMetrics } from '@graph-history/api/ops/api-metrics';
import { KeyRateLimiter } from '@graph-history/api/rate-limit/key-rate-limiter';
import { RateLimitDegradation } from '@graph-history/http';
import { endpointFixture } from '../ingestor/support/endpoint-fixture';
import { expectAppliedOnce } from '../ingestor/support/expect-applied-once';
import { validRun } from '../ingestor/support/watch-events';
import { startTestRedisCluster, TestRedisCluster } from '../support/test-redis-cluster';

/** Both apps on a real Redis Cluster of three masters (REDIS_CLUSTER_NODES). */
describe('Redis Cluster', () => {
  let cluster: TestRedisCluster;
  let target: RedisTarget;

  beforeAll(async () => {
    cluster = await startTestRedisCluster();
    target = {
      REDIS_URL: 'redis://127.0.0.1:1',
      REDIS_CLUSTER_NODES: loadConfig({ REDIS_CLUSTER_NODES: cluster.nodes }).REDIS_CLUSTER_NODES,
    };
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('is configured by host:port pairs; anything else stops start-up with one line', () => {
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: 'a.example:7000, 127.0.0.1:7001' }).REDIS_CLUSTER_NODES,
    ).toEqual([
      { host: 'a.example', port: 7000 },
      { host: '127.0.0.1', port: 7001 },
    ]);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://127.0.0.1:7000' })).toThrow(
      'Invalid configuration: REDIS_CLUSTER_NODES="redis://127.0.0.1:7000": must be host:port pairs separated by commas',
    );
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:70000' })).toThrow(
      /REDIS_CLUSTER_NODES/,
    );
  });

  it('answers the start-up probe, and a silent cluster is named in the error', async () => {
    await expect(assertRedisReachable(target)).resolves.toBeUndefined();
    await expect(
      assertRedisReachable(
        { REDIS_URL: target.REDIS_URL, REDIS_CLUSTER_NODES: [{ host: '127.0.0.1', port: 1 }] },
        1_000,
      ),
    ).rejects.toThrow('Redis is not reachable at the Redis Cluster at 127.0.0.1:1:');
  });

  it('runs the ingestor: BullMQ keys share one slot ({prefix}) and every event is applied once', async () => {
    const f = await endpointFixture(true, { REDIS_CLUSTER_NODES: cluster.nodes });
    try {
      const events = validRun('rc', 250);
      for (let i = 0; i < events.length; i += 50)
        await f.send('on-cluster', events.slice(i, i + 50));
      await f.appliedThrough('on-cluster', events.length);
      await expectAppliedOnce(f.t.db, 'on-cluster', events);
      const keys = await clusterKeys(target, '{ghq-*');
      expect(keys.length).toBeGreaterThan(0);
      const redis = createRedisClient(target) as Cluster;
      try {
        const slots = new Set(
          await Promise.all(keys.map((k) => redis.cluster('KEYSLOT', k) as Promise<number>)),
        );
        const prefixes = new Set(keys.map((k) => k.slice(0, k.indexOf('}') + 1)));
        expect(slots.size).toBe(prefixes.size);
      } finally {
        redis.disconnect();
      }
    } finally {
      await f.close();
    }
  });

  it('gives a key its quota once across two API replicas, whichever master holds the bucket', async () => {
    const degradation = new RateLimitDegradation(new ApiMetrics());
    const [a, b] = [
      limiterRedis(target, () => degradation.redisReady()),
      limiterRedis(target, () => degradation.redisReady()),
    ];
    try {
      for (const r of [a, b])
        if (r.status !== 'ready') await new Promise((ok) => r.once('ready', ok));
      const limits = { perSecond: 1, burst: 20 };
      const prefix = `rc-test-${Date.now()}`;
      const replicas = [
        new KeyRateLimiter(a, limits, prefix, degradation),
        new KeyRateLimiter(b, limits, prefix, degradation),
      ];
      for (const key of ['key_a', 'key_b', 'key_c']) {
        let allowed = 0;
        for (let i = 0; i < 40; i++) if ((await replicas[i % 2]!.consume(key)).allowed) allowed++;
        expect(allowed).toBeGreaterThanOrEqual(20);
        expect(allowed).toBeLessThanOrEqual(22); // the bucket, plus at most what refilled (1/s)
        // counted in the cluster, not by a per-process insurance limiter
        expect(Number(await a.hget(`${prefix}:${key}`, 'tokens'))).toBeLessThan(3);
      }
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });
});

async function clusterKeys(target: RedisTarget, pattern: string): Promise<string[]> {
  const redis = createRedisClient(target) as Cluster;
  try {
    if (redis.status !== 'ready') await new Promise((ok) => redis.once('ready', ok));
    const masters = redis.nodes('master');
    const found = await Promise.all(masters.map((m) => m.keys(pattern)));
    return found.flat();
  } finally {
    redis.disconnect();
  }
}
