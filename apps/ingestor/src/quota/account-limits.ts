import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Config } from '@graph-history/config';
import { AccountIngestLimits, AccountQuotaRepository } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';

/** The defaults of the per-account quotas. */
export type QuotaSettings = Pick<Config, 'ACCOUNT_MAX_GRAPHS' | 'ACCOUNT_MAX_BYTES'>;

/** How long an account's quotas are kept: `accounts set-quota` takes effect within this. */
export const LIMITS_TTL_MS = 5_000;
const ACCOUNTS_KEPT = 100_000;

/**
 * The quotas in force for each account (its overrides in `account_quotas`, else the settings),
 * read at most once per LIMITS_TTL_MS per account and process.
 */
@Injectable()
export class AccountLimits {
  private readonly cache: LRUCache<number, AccountIngestLimits>;

  constructor(quotas: AccountQuotaRepository, @Inject(CONFIG) settings: QuotaSettings) {
    const defaults = {
      maxGraphs: settings.ACCOUNT_MAX_GRAPHS,
      maxBytes: settings.ACCOUNT_MAX_BYTES,
    };
    this.cache = new LRUCache({
      max: ACCOUNTS_KEPT,
      ttl: LIMITS_TTL_MS,
      fetchMethod: (accountId) => quotas.limits(accountId, defaults),
    });
  }

  /**
   * The account's graphs and bytes quotas, and its events-per-second override (null: the ingest
   * limiter's default).
   */
  async accountIngestLimits(accountId: number): Promise<AccountIngestLimits> {
    return (await this.cache.fetch(accountId))!;
  }
}
