import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { CHECKOUT_ID } from './database-url';

const QUEUE_PREFIX = `ghq-${CHECKOUT_ID}-`;
const KEY_PREFIX = `gh:test:${CHECKOUT_ID}:`;

/** A QUEUE_PREFIX of its own, so that tests sharing a Redis server never see each other's jobs. */
export const testQueuePrefix = (): string => `${QUEUE_PREFIX}${randomBytes(5).toString('hex')}`;

/** A prefix for the API's own Redis keys (rate limits), ending in `:`. */
export const testRedisKeyPrefix = (): string => `${KEY_PREFIX}${randomBytes(6).toString('hex')}:`;

/** Deletes every Redis key this checkout's tests made (never the whole server: it is shared). */
export async function deleteTestRedisKeys(url: string): Promise<number> {
  return (
    (await deleteKeysMatching(url, `${QUEUE_PREFIX}*`)) +
    (await deleteKeysMatching(url, `${KEY_PREFIX}*`))
  );
}

/** Deletes the keys matching a SCAN pattern. */
export async function deleteKeysMatching(url: string, pattern: string): Promise<number> {
  const redis = new Redis(url);
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key under `prefix:`, e.g. one test's queues. */
export const deleteRedisKeys = async (url: string, prefix: string): Promise<void> =>
  void (await deleteKeysMatching(url, `${prefix}:*`));
