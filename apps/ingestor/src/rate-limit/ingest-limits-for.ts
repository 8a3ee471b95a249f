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
 * An account's ingest limits: the configured ones, the same for every account today. The one
 * place a per-account override would be looked up.
 */
export const ingestLimitsFor = (
  config: IngestLimitSettings,
  _accountId: number,
): AccountIngestLimits => ({
  events: { perSecond: config.INGEST_EVENTS_PER_SECOND, burst: config.INGEST_EVENTS_BURST },
  bytes: { perSecond: config.INGEST_BYTES_PER_SECOND, burst: config.INGEST_BYTES_BURST },
});
