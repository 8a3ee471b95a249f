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
});
