import { ApiError, rateLimited, TokenBuckets } from '@graph-history/http';
import { IngestorMetrics } from '../ops/ingestor-metrics';
import { AccountLimits } from '../quota/account-limits';
import { IngestLimitSettings, ingestLimitsFor } from './ingest-limits-for';
import { RecentRefusals } from './recent-refusals';

const UNITS: Record<string, string> = { events: 'events', bytes: 'bytes of request body' };

/**
 * The per-account ingest limit: a batch takes its events and its body bytes from the account's two
 * token buckets (shared by all its keys and every ingestor) before anything is stored; when either
 * lacks them, nothing is taken and the batch is refused with 429 and Retry-After. Until then, the
 * same credentials are refused before their body is read (RecentRefusals).
 */
export class IngestRateLimit {
  constructor(
    private readonly buckets: TokenBuckets,
    private readonly settings: IngestLimitSettings,
    private readonly metrics: IngestorMetrics,
    private readonly recent: RecentRefusals,
    private readonly accounts: AccountLimits,
  ) {}

  /** `authorization`: the request's header, remembered with a refusal (see RecentRefusals). */
  async admit(
    accountId: number,
    authorization: string | undefined,
    events: number,
    bytes: number,
  ): Promise<void> {
    const own = await this.accounts.accountIngestLimits(accountId);
    const limits = ingestLimitsFor(this.settings, own.eventsPerSecond);
    const decision = await this.buckets.take(`acct_${accountId}`, [
      { name: 'events', cost: events, limits: limits.events },
      { name: 'bytes', cost: bytes, limits: limits.bytes },
    ]);
    if (decision.allowed) return;
    this.metrics.rateLimited.inc({ reason: decision.binding });
    const perSecond = limits[decision.binding as keyof typeof limits].perSecond;
    const reason = `This account sends more than its ingest limit of ${perSecond.toLocaleString('en-US')} ${UNITS[decision.binding]} a second`;
    this.recent.remember(authorization, Date.now() + decision.msBeforeNext, reason);
    throw rateLimited(Math.max(1, Math.ceil(decision.msBeforeNext / 1000)), {}, reason);
  }

  /**
   * For a request whose credentials were refused lately: the ms that refusal still runs, and its
   * 429 when answered now. Undefined when there is none.
   */
  earlyRefusal(
    authorization: string | undefined,
  ): { msLeft: number; error: () => ApiError } | undefined {
    const r = this.recent.refusal(authorization);
    if (!r) return undefined;
    return {
      msLeft: r.msLeft,
      error: () => {
        this.metrics.rateLimited.inc({ reason: 'early' });
        return rateLimited(Math.max(1, Math.ceil(r.msLeft / 1000)), {}, r.reason);
      },
    };
  }
}
