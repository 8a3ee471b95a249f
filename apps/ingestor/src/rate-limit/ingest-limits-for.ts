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
 * has one (`accounts set-quota --events-per-second`), its bucket holding as many seconds of them
 * as the setting's does.
 */
export const ingestLimitsFor = (
  config: IngestLimitSettings,
  eventsPerSecond: number | null,
): AccountIngestLimits => ({
  events: {
    perSecond: eventsPerSecond ?? config.INGEST_EVENTS_PER_SECOND,
    burst:
      eventsPerSecond === null
        ? config.INGEST_EVENTS_BURST
        : Math.max(
            1,
            Math.round(
              (eventsPerSecond * config.INGEST_EVENTS_BURST) / config.INGEST_EVENTS_PER_SECOND,
            ),
          ),
  },
  bytes: { perSecond: config.INGEST_BYTES_PER_SECOND, burst: config.INGEST_BYTES_BURST },
});
