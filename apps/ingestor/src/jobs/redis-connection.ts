import Redis from 'ioredis';

/**
 * Producers fail fast when Redis is away, without queueing commands while disconnected (enqueueing
 * is best effort: applies then run in-process, and the sweeper re-derives jobs from Postgres);
 * workers wait for Redis indefinitely, as BullMQ requires.
 */
export function createRedis(url: string, role: 'producer' | 'worker'): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    enableOfflineQueue: role === 'worker',
    connectionName: `graph-history-ingestor-${role}`,
  });
  // Connection errors surface through failing commands and readiness; ioredis reconnects itself.
  client.on('error', () => undefined);
  return client;
}
