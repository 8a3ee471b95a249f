import { Config } from '@graph-history/config';
import { AccountQuotaRepository, AccountRepository, Db, QuotaOverrides } from '@graph-history/db';
import { existingAccount } from './existing-account';

/** One quota of an account: what it holds, its limit, and whether the limit is its own. */
export interface QuotaLine {
  used: number;
  limit: number;
  source: 'account' | 'default';
}

/** An account's usage against its quotas. */
export interface AccountQuotaReport {
  account: string;
  graphs: QuotaLine;
  bytes: QuotaLine;
  /** The account's own ingest rate; null: the ingestor's default. */
  eventsPerSecond: number | null;
}

export type QuotaDefaultSettings = Pick<Config, 'ACCOUNT_MAX_GRAPHS' | 'ACCOUNT_MAX_BYTES'>;

/** Shows and sets the per-account quotas (`graph-history accounts …`). */
export class AccountQuotasService {
  private readonly accounts: AccountRepository;
  private readonly quotas: AccountQuotaRepository;

  constructor(
    db: Db,
    private readonly defaults: QuotaDefaultSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.accounts = new AccountRepository(db);
    this.quotas = new AccountQuotaRepository(db);
  }

  async show(accountName: string): Promise<AccountQuotaReport> {
    const account = await existingAccount(this.accounts, accountName);
    const [overrides, usage] = await Promise.all([
      this.quotas.overrides(account.accountId),
      this.quotas.usage(account.accountId),
    ]);
    const line = (used: number, own: number | null, fallback: number): QuotaLine =>
      own === null
        ? { used, limit: fallback, source: 'default' }
        : { used, limit: own, source: 'account' };
    return {
      account: account.name,
      graphs: line(usage.graphs, overrides.maxGraphs, this.defaults.ACCOUNT_MAX_GRAPHS),
      bytes: line(usage.bytes, overrides.maxBytes, this.defaults.ACCOUNT_MAX_BYTES),
      eventsPerSecond: overrides.eventsPerSecond,
    };
  }

  /** Sets the given quotas of the account (null: back to the default), then shows it. */
  async setQuota(
    accountName: string,
    changes: Partial<QuotaOverrides>,
  ): Promise<AccountQuotaReport> {
    const account = await existingAccount(this.accounts, accountName);
    await this.quotas.setOverrides(account.accountId, changes, this.now());
    return this.show(accountName);
  }
}
