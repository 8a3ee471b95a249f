import type { Config } from '@graph-history/config';
import type { BucketLimits } from '@graph-history/http';

export interface AccountIngestLimits {
  events: BucketLimits;
  bytes: BucketLimits;
}

export type IngestLimitSettings = Pick<
  Config,
  | 'INGEST_EVENTS_PER_SECOND'
  | 'INGEST_EVENTS_BURST'
  | 'INGEST_BYTES_PER_SECOND'
  | 'INGEST_BYTES_BURST'
>;

/**
 * An account's ingest limits: the configured ones, with the account's own events a second when it
 * has one (`accounts set-quota --events-per-second`; its bucket then holds at least a second's).
 */
export const ingestLimitsFor = (
  config: IngestLimitSettings,
  eventsPerSecond: number | null,
): AccountIngestLimits => ({
  events: {
    perSecond: eventsPerSecond ?? config.INGEST_EVENTS_PER_SECOND,
    burst: Math.max(config.INGEST_EVENTS_BURST, eventsPerSecond ?? 0),
  },
  bytes: { perSecond: config.INGEST_BYTES_PER_SECOND, burst: config.INGEST_BYTES_BURST },
});
