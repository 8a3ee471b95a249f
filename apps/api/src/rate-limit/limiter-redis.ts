import { createRedisClient, RedisClient, RedisTarget } from '@graph-history/http';
import { RateLimitDegradation } from './rate-limit-degradation';

/**
 * A Redis connection for a rate limiter: never queues commands while disconnected and gives up on
 * slow ones, so a Redis outage costs a request nothing but a switch to the insurance limiter. The
 * API boots and serves while Redis is down; the client keeps reconnecting in the background.
 */
export function limiterRedis(target: RedisTarget, degradation: RateLimitDegradation): RedisClient {
  const redis = createRedisClient(target, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    connectTimeout: 1_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  redis.on('error', () => undefined); // outages are reported by RateLimitDegradation
  redis.on('ready', () => degradation.redisReady());
  return redis;
}
