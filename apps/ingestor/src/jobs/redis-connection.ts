import { createRedisClient, RedisClient, RedisTarget } from '@graph-history/http';

/**
 * Producers fail fast when Redis is away, without queueing commands while disconnected (enqueueing
 * is best effort: applies then run in-process, and the sweeper re-derives jobs from Postgres);
 * workers wait for Redis indefinitely, as BullMQ requires.
 */
export function createRedis(target: RedisTarget, role: 'producer' | 'worker'): RedisClient {
  const client = createRedisClient(target, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    enableOfflineQueue: role === 'worker',
    connectionName: `graph-history-ingestor-${role}`,
  });
  // Connection errors surface through failing commands and readiness; ioredis reconnects itself.
  client.on('error', () => undefined);
  return client;
}
