import { Cluster } from 'ioredis';
import { loadConfig } from '@graph-history/config';
import {
  appliedEventsChannel,
  appliedEventsShardChannels,
  assertRedisReachable,
  createRedisClient,
  hashSlot,
  limiterRedis,
  RedisTarget,
} from '@graph-history/http';
import { createApiApp } from '@graph-history/api/api-app';
import { SseClient } from '../api/support/sse-client';
import { TEST_METRICS_TOKEN } from '../support/metrics-token';
import { NOTICE_RUN_NOTICES, noticeRun } from '../support/notice-events';
import { testQueuePrefix, testRedisKeyPrefix } from '../support/redis-keys';
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

  it('computes hash slots as the cluster does', async () => {
    const redis = createRedisClient(target) as Cluster;
    try {
      const keys = [
        '',
        'a',
        'graph',
        '{user1000}.following',
        'foo{}{bar}',
        'foo{{bar}}zap',
        '{}x',
        'é{ü}',
        'x{',
        '}{y}',
      ];
      for (let i = 0; i < 200; i++) keys.push(`k${i * 7919}:${'z'.repeat(i % 13)}`);
      const theirs = await Promise.all(
        keys.map((k) => redis.cluster('KEYSLOT', k) as Promise<number>),
      );
      expect(keys.map(hashSlot)).toEqual(theirs);
    } finally {
      redis.disconnect();
    }
  });

  it('fans applied events and notices out over sharded pub/sub to an API’s streams', async () => {
    const queuePrefix = testQueuePrefix();
    const f = await endpointFixture(true, {
      REDIS_CLUSTER_NODES: cluster.nodes,
      QUEUE_PREFIX: queuePrefix,
    });
    // polling Postgres only once a minute: what the streams get in time came over pub/sub
    const api = await createApiApp({
      config: loadConfig({
        DATABASE_URL: f.t.url,
        REDIS_URL: 'redis://127.0.0.1:1',
        REDIS_CLUSTER_NODES: cluster.nodes,
        QUEUE_PREFIX: queuePrefix,
        STREAM_POLL_MS: '60000',
        LOG_LEVEL: 'silent',
        METRICS_TOKEN: TEST_METRICS_TOKEN,
      }),
      db: f.t.db,
      redisKeyPrefix: testRedisKeyPrefix(),
    });
    await api.listen({ port: 0, host: '127.0.0.1' });
    const base = await api.getUrl();
    const redis = createRedisClient(target) as Cluster;
    const streams: SseClient[] = [];
    try {
      const shards = appliedEventsShardChannels(queuePrefix);
      // every shard channel has this API's subscriber, on the master of its slot
      await waitUntil(async () => {
        const counts = new Map<string, number>();
        for (const master of redis.nodes('master')) {
          const flat = (await master.call('PUBSUB', 'SHARDNUMSUB', ...shards)) as (
            string | number
          )[];
          for (let i = 0; i < flat.length; i += 2)
            counts.set(String(flat[i]), (counts.get(String(flat[i])) ?? 0) + Number(flat[i + 1]));
        }
        return shards.every((c) => counts.get(c) === 1);
      });
      // spread over the slots, so over all three masters
      const slots = await Promise.all(
        shards.map((c) => redis.cluster('KEYSLOT', c) as Promise<number>),
      );
      expect(slots.map((slot) => Math.floor(slot / 1024))).toEqual(shards.map((_, i) => i));
      const ranges = (await redis.cluster('SLOTS')) as unknown as [
        number,
        number,
        [string, number],
      ][];
      const owners = slots.map((slot) => {
        const [, , [host, port]] = ranges.find(([lo, hi]) => lo <= slot && slot <= hi)!;
        return `${host}:${port}`;
      });
      expect(new Set(owners).size).toBe(3);
      const events = noticeRun('rcs');
      await f.send('streamed', events.slice(0, 1));
      await f.appliedThrough('streamed', 1);
      const open = (path: string) =>
        SseClient.open(`${base}${path}`, { authorization: f.owner.auth });
      streams.push(await open('/api/v1/graphs/gph_streamed/events/stream'));
      streams.push(await open('/api/v1/notices/stream'));
      const [eventStream, noticeStream] = streams as [SseClient, SseClient];
      expect([eventStream.status, noticeStream.status]).toEqual([200, 200]);
      for (const e of events.slice(1)) {
        await f.send('streamed', [e]);
        await new Promise((r) => setTimeout(r, 50));
      }
      await eventStream.until((c) => c.events.length >= events.length - 1, 20_000);
      await noticeStream.until((c) => c.events.length >= NOTICE_RUN_NOTICES.length, 20_000);
      const listed = await fetch(`${base}/api/v1/graphs/gph_streamed/events?order=asc&limit=100`, {
        headers: { authorization: f.owner.auth },
      }).then((r) => r.json() as Promise<{ data: { id: string }[] }>);
      expect(eventStream.events.map((m) => m.id)).toEqual(listed.data.slice(1).map((e) => e.id));
      expect(noticeStream.events.map((m) => JSON.parse(m.data).type)).toEqual(
        NOTICE_RUN_NOTICES.map((n) => n.type),
      );
      // the subscribers' connections dropped: ioredis makes new ones, the probe hears them
      let killed = 0;
      for (const master of redis.nodes('master'))
        killed += Number(await master.call('CLIENT', 'KILL', 'TYPE', 'pubsub'));
      expect(killed).toBeGreaterThanOrEqual(3);
      const more = noticeRun('rcs2', 1_763_780_000_000);
      await f.send('streamed', more);
      await eventStream.until((c) => c.events.length >= events.length - 1 + more.length, 20_000);
      await noticeStream.until((c) => c.events.length >= 2 * NOTICE_RUN_NOTICES.length, 20_000);
      expect(new Set(eventStream.events.map((m) => m.id)).size).toBe(eventStream.events.length);
      // nothing went over the cluster-wide channel
      for (const master of redis.nodes('master'))
        expect(await master.call('PUBSUB', 'NUMSUB', appliedEventsChannel(queuePrefix))).toEqual([
          appliedEventsChannel(queuePrefix),
          0,
        ]);
    } finally {
      for (const s of streams) s.close();
      redis.disconnect();
      await api.close();
      await f.close();
    }
  }, 90_000);

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

async function waitUntil(done: () => Promise<boolean>, ms = 15_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await done());) {
    if (Date.now() > deadline) throw new Error(`not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

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
