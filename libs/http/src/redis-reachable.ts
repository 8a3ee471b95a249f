import Redis from 'ioredis';

export const REDIS_HOWTO =
  'start it with `docker compose up -d redis`, or `redis-server --daemonize yes`, or set REDIS_URL';

/** Resolves when Redis answers PING within the timeout; rejects with one line saying how to fix it. */
export async function assertRedisReachable(url: string, timeoutMs = 2_000): Promise<void> {
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
    await client.ping();
  } catch {
    throw new Error(`Redis is not reachable at ${redactUrl(url)}: ${REDIS_HOWTO}.`);
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
