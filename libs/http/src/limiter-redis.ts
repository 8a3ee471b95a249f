import { createRedisClient, RedisClient, RedisTarget } from './redis-client';

/**
 * A Redis connection for a rate limiter: never queues commands while disconnected and gives up on
 * slow ones, so a Redis outage costs a request nothing but a switch to the insurance limiter. The
 * app boots and serves while Redis is down; the client keeps reconnecting in the background.
 * `onReady` is told each time the connection is (re)established.
 */
export function limiterRedis(
  target: RedisTarget,
  onReady: () => void = () => undefined,
): RedisClient {
  const redis = createRedisClient(target, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    connectTimeout: 1_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  redis.on('error', () => undefined); // outages show as insurance-limiter decisions
  redis.on('ready', onReady);
  return redis;
}
