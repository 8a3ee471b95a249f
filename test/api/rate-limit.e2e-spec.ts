import { ApiHarness } from './support/api-harness';
import { EventScript } from './support/watch-events';
import { TEST_METRICS_TOKEN } from '../support/metrics-token';
import { testRedisKeyPrefix } from '../support/redis-keys';

/** Per-key token bucket in Redis, brute-force guard per address, and serving with Redis down. */
describe('read API: rate limits', () => {
  describe('with Redis', () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await ApiHarness.start({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3' });
      await h.seed('g', new EventScript().session('s').events);
    });
    afterAll(() => h.stop());

    it('spends one token per request, reports it, and answers 429 with Retry-After when empty', async () => {
      const key = await h.key('acme');
      const seen = [];
      for (let i = 0; i < 3; i++) {
        const r = await h.get('/api/v1/graphs/gph_g', { key });
        expect(r.status).toBe(200);
        expect(r.headers['ratelimit-limit']).toBe('3');
        expect(Number(r.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
        seen.push(Number(r.headers['ratelimit-remaining']));
      }
      expect(seen).toEqual([2, 1, 0]);
      const limited = await h.get('/api/v1/graphs/gph_g', { key });
      expect(limited.status).toBe(429);
      expect(limited.json.error).toMatchObject({
        type: 'rate_limit_error',
        code: 'rate_limit',
        param: null,
      });
      expect(limited.headers['retry-after']).toBe('1');
      expect(limited.json.error.message).toMatch(/wait 1 second/);
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      // another key of the same account has its own bucket
      expect((await h.get('/api/v1/graphs/gph_g', { key: await h.key('acme') })).status).toBe(200);
      // the bucket refills at 1 token a second
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await h.get('/api/v1/graphs/gph_g', { key })).status).toBe(200);
    });

    it('blocks guessing from an address after 20 failed look-ups, but not keys it has proven', async () => {
      const attacker = '203.0.113.7';
      const known = await h.key('victim');
      expect(
        (await h.get('/api/v1/graphs', { key: known, clientAddress: '198.51.100.9' })).status,
      ).toBe(200);
      for (let i = 0; i < 20; i++) {
        const r = await h.get('/api/v1/graphs', {
          key: `sk_live_${String(i).padStart(32, 'x')}`,
          clientAddress: attacker,
        });
        expect(r.status).toBe(401);
      }
      const blocked = await h.get('/api/v1/graphs', {
        key: `sk_live_${'y'.repeat(32)}`,
        clientAddress: attacker,
      });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(1);
      // a key never seen to work waits for the block to end...
      expect(
        (await h.get('/api/v1/graphs', { key: await h.key('victim'), clientAddress: attacker }))
          .status,
      ).toBe(429);
      // ...but one that authenticated lately is still looked up and served from the same address
      expect((await h.get('/api/v1/graphs', { key: known, clientAddress: attacker })).status).toBe(
        200,
      );
      // a request without a key is still told it needs one, and is not counted
      expect((await h.get('/api/v1/graphs', { key: null, clientAddress: attacker })).status).toBe(
        401,
      );
      const elsewhere = await h.get('/api/v1/graphs', {
        key: await h.key('victim'),
        clientAddress: '198.51.100.1',
      });
      expect(elsewhere.status).toBe(200);
      const metrics = (await h.get('/metrics', { key: TEST_METRICS_TOKEN })).body;
      expect(metrics).toMatch(
        /graph_history_api_rate_limited_total\{reason="authentication_failures"\} [1-9]/,
      );
    });

    it('takes the client address right of the trusted proxy: a forged X-Forwarded-For does not help', async () => {
      const attacker = '203.0.113.8';
      let refused = 0;
      for (let i = 0; i < 25; i++) {
        const r = await h.get('/api/v1/graphs', {
          key: `sk_live_${String(i).padStart(32, 'z')}`,
          clientAddress: `10.9.${i}.1, ${attacker}`,
        });
        if (r.status === 429) refused++;
      }
      expect(refused).toBe(5);
    });
  });

  describe('with Redis unreachable', () => {
    let h: ApiHarness;
    beforeAll(async () => {
      // a 30 s window for the in-process fixed window, so a slow machine cannot reset it mid-test
      h = await ApiHarness.start({
        REDIS_URL: 'redis://127.0.0.1:1',
        RATE_LIMIT_PER_SECOND: '1',
        RATE_LIMIT_BURST: '30',
      });
      await h.seed('g', new EventScript().session('s').events);
    });
    afterAll(() => h.stop());

    it('keeps serving on the in-process insurance limiter, and says so in its metrics', async () => {
      const key = await h.key('acme');
      for (let i = 0; i < 30; i++)
        expect((await h.get('/api/v1/graphs/gph_g', { key })).status).toBe(200);
      expect((await h.get('/api/v1/graphs/gph_g', { key })).status).toBe(429);
      const metrics = (await h.get('/metrics', { key: TEST_METRICS_TOKEN })).body;
      expect(metrics).toMatch(/graph_history_api_rate_limit_degraded 1/);
      expect(metrics).toMatch(/graph_history_api_rate_limit_insurance_decisions_total [1-9]/);
    });
  });
});

describe('KeyRateLimiter leases', () => {
  it('takes tokens from Redis in leases yet refuses exactly past the bucket', async () => {
    const { ApiMetrics } = await import('../../apps/api/src/ops/api-metrics');
    const { RateLimitDegradation } = await import('@graph-history/http');
    const { limiterRedis } = await import('@graph-history/http');
    const { KeyRateLimiter } = await import('../../apps/api/src/rate-limit/key-rate-limiter');
    const degradation = new RateLimitDegradation(new ApiMetrics());
    const redis = limiterRedis({ REDIS_URL: process.env.REDIS_URL! }, () =>
      degradation.redisReady(),
    );
    if (redis.status !== 'ready') await new Promise((r) => redis.once('ready', r));
    try {
      const prefix = `${testRedisKeyPrefix()}lease`;
      const replicaA = new KeyRateLimiter(
        redis,
        { perSecond: 100, burst: 200 },
        prefix,
        degradation,
      );
      const replicaB = new KeyRateLimiter(
        redis,
        { perSecond: 100, burst: 200 },
        prefix,
        degradation,
      );
      // the bucket refills from its first Redis call on
      const started = Date.now();
      const first = await replicaA.consume('key_1');
      expect(first).toMatchObject({ allowed: true, remaining: 199 });
      // one Redis call took a lease of 10 tokens from the shared bucket
      expect(Number(await redis.hget(`${prefix}:key_1`, 'tokens'))).toBeCloseTo(190, 0);
      let allowed = 1;
      let refused;
      while ((refused = await (allowed % 2 ? replicaB : replicaA).consume('key_1')).allowed)
        allowed++;
      // never more than the bucket plus what refilled meanwhile (100 a second)
      const refilled = ((Date.now() - started) / 1000) * 100;
      expect(allowed).toBeGreaterThanOrEqual(200);
      expect(allowed).toBeLessThanOrEqual(200 + Math.ceil(refilled) + 1);
      // the refusal says when the next token is back (one every 10 ms), with nothing remaining
      expect(refused).toMatchObject({ allowed: false, remaining: 0 });
      expect(refused.msBeforeNext).toBeGreaterThan(0);
      expect(refused.msBeforeNext).toBeLessThanOrEqual(10);
    } finally {
      redis.disconnect();
    }
  });

  it('serves concurrent requests of a key from shared leases, taking only the tokens spent', async () => {
    const { ApiMetrics } = await import('../../apps/api/src/ops/api-metrics');
    const { RateLimitDegradation } = await import('@graph-history/http');
    const { limiterRedis } = await import('@graph-history/http');
    const { KeyRateLimiter } = await import('../../apps/api/src/rate-limit/key-rate-limiter');
    const degradation = new RateLimitDegradation(new ApiMetrics());
    const redis = limiterRedis({ REDIS_URL: process.env.REDIS_URL! }, () =>
      degradation.redisReady(),
    );
    if (redis.status !== 'ready') await new Promise((r) => redis.once('ready', r));
    try {
      const prefix = `${testRedisKeyPrefix()}concurrent`;
      const limiter = new KeyRateLimiter(
        redis,
        { perSecond: 100, burst: 200 },
        prefix,
        degradation,
      );
      const started = Date.now();
      const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.consume('k')));
      const refilled = ((Date.now() - started) / 1000) * 100;
      expect(decisions.every((d) => d.allowed)).toBe(true);
      // three leases of 10 for 30 requests, not a lease per request: 30 tokens left the bucket
      const tokens = Number(await redis.hget(`${prefix}:k`, 'tokens'));
      expect(tokens).toBeGreaterThanOrEqual(170);
      expect(tokens).toBeLessThanOrEqual(170 + refilled);
      expect(Math.min(...decisions.map((d) => d.remaining))).toBeGreaterThanOrEqual(170);
    } finally {
      redis.disconnect();
    }
  });
});
