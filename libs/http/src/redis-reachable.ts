import Redis from 'ioredis';

export const REDIS_HOWTO =
  'start it with `docker compose up -d redis`, or `redis-server --daemonize yes`, or set REDIS_URL';

/** Resolves when Redis answers PING within the timeout; rejects with one line saying how to fix it. */
export async function assertRedisReachable(url: string, timeoutMs = 2_000): Promise<void> {
  if (!(await redisAnswers(url, timeoutMs))) {
    throw new Error(`Redis is not reachable at ${redactUrl(url)}: ${REDIS_HOWTO}.`);
  }
}

/** Whether a Redis at `url` answers PING within the timeout. */
export async function redisAnswers(url: string, timeoutMs = 2_000): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '****';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(unparseable URL)';
  }
}
