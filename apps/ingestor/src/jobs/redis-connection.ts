import { createRedisClient, RedisClient, RedisTarget } from '@graph-history/http';

/**
 * Producers fail fast when Redis is away (enqueueing is best effort: the sweeper re-derives jobs
 * from Postgres); workers wait for Redis indefinitely, as BullMQ requires.
 */
export function createRedis(target: RedisTarget, role: 'producer' | 'worker'): RedisClient {
  const client = createRedisClient(target, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    connectionName: `graph-history-ingestor-${role}`,
  });
  // Connection errors surface through failing commands and readiness; ioredis reconnects itself.
  client.on('error', () => undefined);
  return client;
}
