import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AccountQuotaRepository, Db } from '@graph-history/db';
import { AccountLimits } from './account-limits';
import { bytesQuotaExceeded, graphQuotaExceeded } from './quota-errors';

/** How long an account's bytes held are taken from the database at most once per process. */
export const USAGE_TTL_MS = 1_000;
const ACCOUNTS_KEPT = 100_000;

/**
 * Refuses what would take an account past its graphs or bytes quota. Bytes held are read at most
 * once a second per account (a sum over its graphs) and grow here by what this process stores
 * meanwhile; other processes' batches of that second are seen at the next read. Graphs are
 * counted exactly, under the account's row lock, when one is created.
 */
@Injectable()
export class QuotaGuard {
  private readonly bytesHeld: LRUCache<number, { bytes: number }>;

  constructor(
    private readonly quotas: AccountQuotaRepository,
    private readonly limits: AccountLimits,
  ) {
    this.bytesHeld = new LRUCache({
      max: ACCOUNTS_KEPT,
      ttl: USAGE_TTL_MS,
      fetchMethod: async (accountId) => ({ bytes: (await quotas.usage(accountId)).bytes }),
    });
  }

  /** Throws 403 quota_exceeded when storing `bytes` more would pass the account's bytes quota. */
  async checkBytes(accountId: number, bytes: number): Promise<void> {
    const [{ maxBytes }, held] = await Promise.all([
      this.limits.accountIngestLimits(accountId),
      this.bytesHeld.fetch(accountId),
    ]);
    if (held!.bytes + bytes > maxBytes) throw bytesQuotaExceeded(maxBytes, held!.bytes, bytes);
  }

  /** The account stored `bytes` more (a committed batch). */
  stored(accountId: number, bytes: number): void {
    const held = this.bytesHeld.get(accountId);
    if (held) held.bytes += bytes;
  }

  /**
   * Before the account creates the graph `graphKey`, in the creating transaction `trx`: throws
   * 403 quota_exceeded when the account already holds its quota of graphs. Creators of one
   * account wait for each other here until their transaction ends.
   */
  async checkNewGraph(accountId: number, graphKey: string, trx: Db): Promise<void> {
    const { maxGraphs } = await this.limits.accountIngestLimits(accountId);
    const graphs = await this.quotas.in(trx).graphsBeforeCreating(accountId, graphKey);
    if (graphs !== null && graphs >= maxGraphs) throw graphQuotaExceeded(maxGraphs, graphs);
  }
}
