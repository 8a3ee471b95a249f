import type { RedisClient } from './redis-client';

/**
 * The Redis pub/sub channel on which the ingestor tells every API process that a graph has new
 * applied events (one small message per committed apply batch: `<graph id>:<newest applied seq>`,
 * followed by `:<account id>:<newest notice number>` when the batch also wrote notices).
 * One channel for all graphs, under the deployment's QUEUE_PREFIX; a Redis Cluster broadcasts a
 * PUBLISH to every node, so a subscriber on any node hears it.
 */
export const appliedEventsChannel = (queuePrefix: string): string => `${queuePrefix}:applied`;

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
 * Publishes, best effort: while Redis is away the API's streams poll Postgres, so a lost message
 * only delays them.
 */
export function publishAppliedEvents(
  redis: RedisClient,
  queuePrefix: string,
  m: AppliedEvents,
): Promise<void> {
  return redis.publish(appliedEventsChannel(queuePrefix), appliedEventsMessage(m)).then(
    () => undefined,
    () => undefined,
  );
}
