import Redis, { Cluster, ClusterOptions, RedisOptions } from 'ioredis';
import type { Config } from '@graph-history/config';

/** A connection to a single Redis or to a Redis Cluster (REDIS_CLUSTER_NODES). */
export type RedisClient = Redis | Cluster;

export type RedisTarget = Pick<Config, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>;

/**
 * Connects to the cluster when REDIS_CLUSTER_NODES is set, else to REDIS_URL. The options are a
 * single server's; for a cluster they apply to each node's connection, and `retryStrategy`,
 * `enableOfflineQueue` and `lazyConnect` to the cluster client itself; `cluster` adds options of
 * the cluster client only.
 */
export function createRedisClient(
  target: RedisTarget,
  options: RedisOptions = {},
  cluster: Pick<ClusterOptions, 'shardedSubscribers'> = {},
): RedisClient {
  const nodes = target.REDIS_CLUSTER_NODES;
  if (!nodes) return new Redis(target.REDIS_URL, options);
  const { retryStrategy, enableOfflineQueue, lazyConnect, ...redisOptions } = options;
  return new Cluster(nodes, {
    redisOptions,
    enableOfflineQueue,
    lazyConnect,
    ...cluster,
    ...(retryStrategy && { clusterRetryStrategy: (times: number) => retryStrategy(times) }),
  });
}

/**
 * Redis key prefix under which a group of keys lives in one cluster slot: a `{hash tag}` on a
 * cluster (BullMQ's scripts touch many keys of a queue at once), the prefix itself otherwise.
 */
export const slotPrefix = (target: RedisTarget, prefix: string): string =>
  target.REDIS_CLUSTER_NODES ? `{${prefix}}` : prefix;

/** Where Redis is, for messages (no password). */
export function describeRedis(target: RedisTarget): string {
  const nodes = target.REDIS_CLUSTER_NODES;
  if (nodes) return `the Redis Cluster at ${nodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
  try {
    const u = new URL(target.REDIS_URL);
    if (u.password) u.password = '****';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(unparseable URL)';
  }
}
