import { Cluster } from 'ioredis';
import { hashSlot } from './hash-slot';
import type { RedisClient } from './redis-client';

/**
 * On a Redis Cluster the messages go over sharded pub/sub, on this many shard channels: a graph's
 * messages on channel `graph id mod APPLIED_SHARDS`, shard i's hash slot in the i-th sixteenth of
 * the slots (so that the channels are spread over the masters whatever their number). Every API process subscribes to all of them
 * (notice streams are per account and hear every graph's messages), which is one SSUBSCRIBE per
 * channel at start-up and one connection per master holding one, whatever the number of graphs
 * or streams; a message is handled by one shard (its master and replicas) instead of being relayed
 * to every node of the cluster as a plain PUBLISH is.
 */
export const APPLIED_SHARDS = 16;

/**
 * The Redis pub/sub channel on which the ingestor tells every API process that a graph has new
 * applied events (one small message per committed apply batch: `<graph id>:<newest applied seq>`,
 * followed by `:<account id>:<newest notice number>` when the batch also wrote notices).
 * One channel for all graphs, under the deployment's QUEUE_PREFIX, on a single Redis.
 */
export const appliedEventsChannel = (queuePrefix: string): string => `${queuePrefix}:applied`;

const SLOTS = 16384;

/** Per shard, the first hash tag `applied-<shard>-<n>` whose slot is in the shard's sixteenth. */
const SHARD_TAGS = Array.from({ length: APPLIED_SHARDS }, (_, shard) => {
  const low = (shard * SLOTS) / APPLIED_SHARDS;
  for (let n = 0; ; n++) {
    const tag = `applied-${shard}-${n}`;
    const slot = hashSlot(tag);
    if (slot >= low && slot < low + SLOTS / APPLIED_SHARDS) return tag;
  }
});

/** Shard channel `shard` (0 to APPLIED_SHARDS - 1) of a Redis Cluster. */
export const appliedEventsShardChannel = (queuePrefix: string, shard: number): string =>
  `${queuePrefix}:applied:{${SHARD_TAGS[shard]}}`;

/** Every shard channel of a Redis Cluster, in shard order. */
export const appliedEventsShardChannels = (queuePrefix: string): string[] =>
  Array.from({ length: APPLIED_SHARDS }, (_, shard) =>
    appliedEventsShardChannel(queuePrefix, shard),
  );

export interface AppliedEvents {
  graphId: number;
  seq: number;
  /** The newest notice the commit wrote, and its account (notice streams are per account). */
  notices?: { accountId: number; noticeNo: number } | null;
}

export const appliedEventsMessage = (m: AppliedEvents): string =>
  `${m.graphId}:${m.seq}` + (m.notices ? `:${m.notices.accountId}:${m.notices.noticeNo}` : '');

/** A message of the channel, or null for anything else. */
export function readAppliedEvents(message: string): AppliedEvents | null {
  const m = /^(\d+):(\d+)(?::(\d+):(\d+))?$/.exec(message);
  if (!m) return null;
  const notices = m[3] ? { accountId: Number(m[3]), noticeNo: Number(m[4]) } : null;
  return { graphId: Number(m[1]), seq: Number(m[2]), notices };
}

/**
 * Publishes (SPUBLISH on the graph's shard channel of a cluster, PUBLISH on a single Redis), best
 * effort: while Redis is away the API's streams poll Postgres, so a lost message only delays them.
 */
export function publishAppliedEvents(
  redis: RedisClient,
  queuePrefix: string,
  m: AppliedEvents,
): Promise<void> {
  const message = appliedEventsMessage(m);
  const sent =
    redis instanceof Cluster
      ? redis.spublish(appliedEventsShardChannel(queuePrefix, m.graphId % APPLIED_SHARDS), message)
      : redis.publish(appliedEventsChannel(queuePrefix), message);
  return sent.then(
    () => undefined,
    () => undefined,
  );
}
