import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AccountConcurrency,
  limiterRedis,
  RateLimitDegradation,
  type Principal,
} from '@graph-history/http';
import { ApiMetrics } from '../../apps/api/src/ops/api-metrics';
import { FairShare } from '../../apps/api/src/rate-limit/fair-share';
import { KeyRateLimiter } from '../../apps/api/src/rate-limit/key-rate-limiter';
import { pageBytesOf } from '../../apps/api/src/rate-limit/page-budget';
import { COST_UNIT_BYTES } from '../../apps/api/src/rate-limit/request-cost';
import { testRedisKeyPrefix } from '../support/redis-keys';

/** What admit and settle use of a request and its reply: the URL, the socket, the headers set. */
function exchange(url: string) {
  const headers: Record<string, unknown> = {};
  const raw = new EventEmitter();
  const reply = {
    raw,
    header(name: string, value: unknown) {
      headers[name] = value;
      return reply;
    },
  };
  const req = { url, raw: { socket: { destroyed: false } } };
  return {
    req: req as unknown as FastifyRequest,
    reply: reply as unknown as FastifyReply,
    headers,
    close: () => raw.emit('close'),
  };
}

const principal: Principal = { keyId: 'key_a', accountId: 7, kind: 'secret', graphKeys: null };

describe('FairShare.admit', () => {
  const metrics = new ApiMetrics();
  const degradation = new RateLimitDegradation(metrics);
  const redis = limiterRedis({ REDIS_URL: process.env.REDIS_URL! }, () => degradation.redisReady());
  // the limiter's connection queues nothing before it is up: wait for it
  beforeAll(
    () =>
      new Promise((ready) => (redis.status === 'ready' ? ready(null) : redis.once('ready', ready))),
  );
  afterAll(() => redis.disconnect());

  const fairShare = (burst: number, concurrency = new AccountConcurrency(1, 0)) => {
    const prefix = testRedisKeyPrefix();
    const limits = { perSecond: 100, burst };
    return new FairShare(
      new KeyRateLimiter(redis, limits, `${prefix}key`, degradation),
      new KeyRateLimiter(redis, limits, `${prefix}acct`, degradation),
      concurrency,
      metrics,
      4 * 1024 * 1024,
    );
  };

  it('admits a cheap request from leased tokens without a promise, with the same headers', async () => {
    const share = fairShare(200);
    const first = exchange('/api/v1/graphs/gph_a');
    // no lease yet: Redis is asked
    const waited = share.admit(first.req, first.reply, principal);
    expect(waited).toBeInstanceOf(Promise);
    await waited;
    expect(first.headers).toMatchObject({ 'RateLimit-Limit': 200, 'RateLimit-Remaining': 199 });
    expect(Object.keys(first.headers)).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ]);
    const second = exchange('/api/v1/graphs/gph_a');
    expect(share.admit(second.req, second.reply, principal)).toBeUndefined();
    expect(second.headers).toMatchObject({ 'RateLimit-Limit': 200, 'RateLimit-Remaining': 198 });
    // admitted: its cost is settled (a 5 KB body costs 2 tokens)
    expect(share.settle(second.req, second.reply, 'x'.repeat(5 * 1024))).toBeInstanceOf(Promise);
    expect(second.headers['Request-Cost']).toBe(2);
  });

  it('refuses on the hot path too once the bucket is spent', async () => {
    const share = fairShare(2);
    let refusal: unknown;
    for (let i = 0; i < 5 && !refusal; i++) {
      const { req, reply } = exchange('/api/v1/graphs/gph_a');
      try {
        await share.admit(req, reply, principal);
      } catch (err) {
        refusal = err;
      }
    }
    expect(refusal).toMatchObject({ code: 'rate_limit' });
  });

  it('makes an expensive request wait for a slot, and refuses it when none can be had', async () => {
    const share = fairShare(200, new AccountConcurrency(1, 0));
    await share.admit(exchange('/x').req, exchange('/x').reply, principal);
    const holder = exchange('/api/v1/graphs/gph_a/nodes?limit=1000');
    const held = share.admit(holder.req, holder.reply, principal);
    expect(held).toBeInstanceOf(Promise);
    await held;
    const other = exchange('/api/v1/graphs/gph_a/nodes?limit=1000');
    await expect(share.admit(other.req, other.reply, principal)).rejects.toMatchObject({
      code: 'rate_limit',
    });
    // the slot comes back when the holder's connection closes
    holder.close();
    const next = exchange('/api/v1/graphs/gph_a/nodes?limit=1000');
    await expect(share.admit(next.req, next.reply, principal)).resolves.toBeUndefined();
  });

  /** Admits `n` requests of `url` at once (none settled meanwhile): their statuses, and them. */
  async function admitAtOnce(share: FairShare, url: string, n: number) {
    const exchanges = Array.from({ length: n }, () => exchange(url));
    const outcomes = await Promise.allSettled(
      exchanges.map((x) => Promise.resolve().then(() => share.admit(x.req, x.reply, principal))),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected');
    for (const r of refused) expect(r.reason).toMatchObject({ code: 'rate_limit' });
    const admitted = exchanges.filter((_, i) => outcomes[i]!.status === 'fulfilled');
    return { admitted, refused: refused.length };
  }

  it('admits 30 small lists of a key in flight at once when its bucket pays for them', async () => {
    const share = fairShare(200, new AccountConcurrency(1, 32));
    const started = Date.now();
    const { admitted, refused } = await admitAtOnce(
      share,
      '/api/v1/graphs/gph_a/nodes?limit=5',
      30,
    );
    expect(refused).toBe(0);
    // each held tokens for its five items: whole pages, though 30 read at once
    for (const x of admitted) expect(pageBytesOf(x.req)).toBe(6 * COST_UNIT_BYTES);
    // each read 5 KB (2 tokens): settled, they paid 60 of the 200 and freed what they held
    await Promise.all(admitted.map((x) => share.settle(x.req, x.reply, 'x'.repeat(5 * 1024))));
    await new Promise((r) => setTimeout(r, 100)); // the frees are not waited for
    const next = exchange('/api/v1/graphs/gph_a/nodes?limit=5');
    await share.admit(next.req, next.reply, principal);
    expect(pageBytesOf(next.req)).toBe(6 * COST_UNIT_BYTES);
    const remaining = Number(next.headers['RateLimit-Remaining']);
    expect(remaining).toBeGreaterThan(200 - 62 - 10);
    // at most the refill (100 a second) of the time the test took since it spent them
    const refill = Math.ceil((100 * (Date.now() - started)) / 1000);
    expect(remaining).toBeLessThanOrEqual(200 - 61 + refill);
  });

  it('refuses lists past the bucket once its tokens are spent, not before', async () => {
    const share = fairShare(100, new AccountConcurrency(1, 32));
    const { admitted, refused } = await admitAtOnce(share, '/api/v1/graphs/gph_a/events', 150);
    // one token each to be admitted: the bucket (and what refilled meanwhile) admits ~100
    expect(admitted.length).toBeGreaterThanOrEqual(95);
    expect(admitted.length).toBeLessThanOrEqual(110);
    expect(refused).toBe(150 - admitted.length);
  });
});
