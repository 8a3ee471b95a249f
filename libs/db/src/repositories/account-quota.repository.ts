import { sql } from 'kysely';
import { graphOwner } from './graph-owner';
import { Repository } from './repository';
import { GenerateSql } from '../sql-text/generate-sql';

/** An account's own quotas; null where the deployment's default applies. */
export interface QuotaOverrides {
  maxGraphs: number | null;
  maxBytes: number | null;
  /** For the ingest limiter: null means its default. */
  eventsPerSecond: number | null;
}

/** The deployment's defaults (ACCOUNT_MAX_GRAPHS, ACCOUNT_MAX_BYTES). */
export interface QuotaDefaults {
  maxGraphs: number;
  maxBytes: number;
}

/** The quotas in force for an account: its overrides, else the defaults. */
export interface AccountIngestLimits {
  maxGraphs: number;
  maxBytes: number;
  /** Events per second the account may ingest; null: the limiter's default. */
  eventsPerSecond: number | null;
  overrides: QuotaOverrides;
}

/** What an account holds: its graphs, and the bytes of their stored events (inbox and retained). */
export interface AccountUsage {
  graphs: number;
  bytes: number;
}

const NO_OVERRIDES: QuotaOverrides = { maxGraphs: null, maxBytes: null, eventsPerSecond: null };

/** The quotas of accounts (`account_quotas`, migration 0011) and what accounts hold against them. */
export class AccountQuotaRepository extends Repository {
  @GenerateSql({ params: [1] })
  async overrides(accountId: number): Promise<QuotaOverrides> {
    const row = await this.db
      .selectFrom('account_quotas')
      .select(['max_graphs', 'max_bytes', 'events_per_second'])
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) return NO_OVERRIDES;
    return {
      maxGraphs: row.max_graphs,
      maxBytes: row.max_bytes,
      eventsPerSecond: row.events_per_second,
    };
  }

  /** The account's quotas in force: each override, else its default. */
  @GenerateSql({ params: [1, { maxGraphs: 10, maxBytes: 1_000_000 }] })
  async limits(accountId: number, defaults: QuotaDefaults): Promise<AccountIngestLimits> {
    const overrides = await this.overrides(accountId);
    return {
      maxGraphs: overrides.maxGraphs ?? defaults.maxGraphs,
      maxBytes: overrides.maxBytes ?? defaults.maxBytes,
      eventsPerSecond: overrides.eventsPerSecond,
      overrides,
    };
  }

  /** Sets the given overrides (null: back to the default); the others keep their value. */
  @GenerateSql({ params: [1, { maxGraphs: 20 }, 1_000] })
  async setOverrides(
    accountId: number,
    changes: Partial<QuotaOverrides>,
    now: number,
  ): Promise<QuotaOverrides> {
    const columns = {
      ...(changes.maxGraphs !== undefined && { max_graphs: changes.maxGraphs }),
      ...(changes.maxBytes !== undefined && { max_bytes: changes.maxBytes }),
      ...(changes.eventsPerSecond !== undefined && { events_per_second: changes.eventsPerSecond }),
    };
    await this.db
      .insertInto('account_quotas')
      .values({ ...NO_OVERRIDES_ROW, ...columns, account_id: accountId, updated: now })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...columns, updated: now }))
      .execute();
    return this.overrides(accountId);
  }

  /**
   * The account's graphs (from the directory) and the bytes their stored events weigh (the sum
   * of `graphs.stored_bytes`: under Citus, a statement on every shard).
   */
  @GenerateSql({ params: [1] })
  async usage(accountId: number): Promise<AccountUsage> {
    const { rows } = await sql<{ graphs: number; bytes: number }>`select
        (select count(*)::int from graph_directory where account_id = ${accountId}) as graphs,
        (select coalesce(sum(stored_bytes), 0)::bigint from graphs
         where account_id = ${accountId}) as bytes`.execute(this.db);
    return { graphs: rows[0]!.graphs, bytes: Number(rows[0]!.bytes) };
  }

  /**
   * Before the account creates the graph `graphKey`: takes the account's row lock until the
   * transaction ends (creators of one account queue up, so a count cannot go stale before the
   * new graph is claimed) and returns the account's graph count; null when `graphKey` is claimed
   * meanwhile (nothing to create). Run it on a transaction (`in(trx)`).
   */
  @GenerateSql({ params: [1, 'g1'] })
  async graphsBeforeCreating(accountId: number, graphKey: string): Promise<number | null> {
    // NO KEY UPDATE: keys and graph keys inserted for the account (FOR KEY SHARE) do not wait
    await sql`select 1 from accounts where account_id = ${accountId} for no key update`.execute(
      this.db,
    );
    if (await graphOwner(this.db, graphKey)) return null;
    const row = await this.db
      .selectFrom('graph_directory')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

const NO_OVERRIDES_ROW = { max_graphs: null, max_bytes: null, events_per_second: null };
