import { createRedisClient, describeRedis, RedisTarget } from './redis-client';

export const REDIS_HOWTO =
  'start it with `docker compose up -d redis`, or `redis-server --daemonize yes`, or set REDIS_URL';

const asTarget = (target: string | RedisTarget): RedisTarget =>
  typeof target === 'string' ? { REDIS_URL: target } : target;

/** Resolves when Redis answers PING within the timeout; rejects with one line saying how to fix it. */
export async function assertRedisReachable(
  target: string | RedisTarget,
  timeoutMs = 2_000,
): Promise<void> {
  if (!(await redisAnswers(target, timeoutMs))) {
    throw new Error(
      `Redis is not reachable at ${describeRedis(asTarget(target))}: ${REDIS_HOWTO}.`,
    );
  }
}

/** Whether a Redis (or Redis Cluster) answers PING within the timeout. */
export async function redisAnswers(
  target: string | RedisTarget,
  timeoutMs = 2_000,
): Promise<boolean> {
  const client = createRedisClient(asTarget(target), {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  const timeout = new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false).unref());
  try {
    return await Promise.race([
      client.connect().then(async () => (await client.ping()) === 'PONG'),
      timeout,
    ]);
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
