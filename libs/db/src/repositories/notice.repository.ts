import { Insertable, sql } from 'kysely';
import { NoticesTable } from '../schema';
import { Repository } from './repository';
import { GenerateSql } from '../sql-text/generate-sql';
import { NOTICE_COLUMNS } from './apply-columns';
import { insertRowsSql } from './insert-rows';

/** A notice row as the apply writes it (its number reserved, its body sealed). */
export type NoticeInsert = Insertable<NoticesTable>;

/** Which of an account's notices a read wants. */
export interface NoticeFilter {
  accountId: number;
  /** Graph keys a restricted key may read; null: every graph of the account. */
  graphKeys: string[] | null;
  /** Only this graph's (by key). */
  graphKey?: string;
  /** Only these types. */
  types?: readonly string[];
}

/** A stored notice: its number (the account's order) and its public JSON. */
export interface NoticeRow {
  noticeNo: number;
  body: string;
}

/** First key of the account notice locks (two-key advisory locks; the graph apply lock has one). */
const NOTICE_LOCK_CLASS = 0x6e746300;

/** Notices: made by the apply (in its commit), read by the notices list and stream, trimmed. */
export class NoticeRepository extends Repository {
  /**
   * `count` fresh notice numbers for the account (the ids are sealed into the bodies before they
   * are written). Run it in the transaction that writes them: it takes the account's notice lock
   * until that commits, so that an account's notices become visible in the order of their numbers
   * and a reader that has seen number N never meets a smaller one later (the streams rely on it).
   */
  @GenerateSql({ params: [1, 2] })
  async reserveNumbers(accountId: number, count: number): Promise<number[]> {
    if (count === 0) return [];
    // the numbers are drawn only once the lock is held: each output row needs the locked row
    const { rows } = await sql<{ n: string }>`with
      locked as materialized (
        select pg_advisory_xact_lock(${NOTICE_LOCK_CLASS}, ${accountId % 2 ** 31}::int))
      select nextval('notices_notice_no_seq') as n from locked, generate_series(1, ${count})`.execute(
      this.db,
    );
    return rows.map((r) => Number(r.n));
  }

  /** Writes notices numbered by reserveNumbers, in its transaction. */
  @GenerateSql({
    params: [
      [
        {
          account_id: 1,
          notice_no: 1,
          graph_id: 1,
          node_no: 1,
          seq: 1,
          type: 'node.failed',
          created: 1_000,
          body: '{}',
        },
      ],
    ],
  })
  async insert(rows: NoticeInsert[]): Promise<void> {
    await insertRowsSql('notices', NOTICE_COLUMNS, rows).execute(this.db);
  }

  /**
   * Up to `limit` notices of the filter, newest first after (older than) `before`, or oldest first
   * after (newer than) `after`; both undefined: the newest.
   */
  @GenerateSql(
    { params: [{ accountId: 1, graphKeys: null }, 50, {}] },
    {
      name: 'older, filtered',
      params: [
        { accountId: 1, graphKeys: ['g1'], graphKey: 'g1', types: ['graph.quarantined'] },
        50,
        { olderThan: 9 },
      ],
    },
    { name: 'newer', params: [{ accountId: 1, graphKeys: null }, 50, { newerThan: 1 }] },
  )
  async page(
    filter: NoticeFilter,
    limit: number,
    position: { olderThan?: number; newerThan?: number },
  ): Promise<NoticeRow[]> {
    const { olderThan, newerThan } = position;
    const ascending = newerThan !== undefined;
    const { rows } = await sql<{ notice_no: string; body: string }>`
      select n.notice_no, n.body from notices n
      where n.account_id = ${filter.accountId} and ${filterSql(filter)}
        and ${olderThan === undefined ? sql`true` : sql`n.notice_no < ${olderThan}`}
        and ${newerThan === undefined ? sql`true` : sql`n.notice_no > ${newerThan}`}
      order by n.notice_no ${ascending ? sql`asc` : sql`desc`}
      limit ${limit}`.execute(this.db);
    return rows.map((r) => ({ noticeNo: Number(r.notice_no), body: r.body }));
  }

  /** Whether the notice is stored and within the filter (a cursor must be). */
  @GenerateSql({ params: [{ accountId: 1, graphKeys: null }, 1] })
  async has(filter: NoticeFilter, noticeNo: number): Promise<boolean> {
    const { rows } = await sql`select 1 from notices n
      where n.account_id = ${filter.accountId} and n.notice_no = ${noticeNo}
        and ${filterSql(filter)}`.execute(this.db);
    return rows.length > 0;
  }

  /** The account's oldest kept notice number; null when it has none. */
  @GenerateSql({ params: [1] })
  async oldest(accountId: number): Promise<number | null> {
    const { rows } = await sql<{ n: string | null }>`select min(notice_no) as n from notices
      where account_id = ${accountId}`.execute(this.db);
    return rows[0]?.n == null ? null : Number(rows[0].n);
  }

  /** The account's newest notice number; 0 when it has none. */
  @GenerateSql({ params: [1] })
  async newest(accountId: number): Promise<number> {
    const { rows } = await sql<{ n: string | null }>`select max(notice_no) as n from notices
      where account_id = ${accountId}`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Keeps the newest `kept` notices of the account that owns `graphId`, deleting older ones;
   * returns how many it deleted.
   */
  @GenerateSql({ params: [1, 1_000] })
  async trimAccountOf(graphId: number, kept: number): Promise<number> {
    const result = await sql`with owner as (
        select account_id from graph_directory where graph_id = ${graphId}),
      cut as (
        select n.notice_no from notices n, owner o where n.account_id = o.account_id
        order by n.notice_no desc offset ${kept} limit 1)
      delete from notices d using owner o, cut c
      where d.account_id = o.account_id and d.notice_no <= c.notice_no`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }
}

function filterSql(f: NoticeFilter) {
  const keys =
    f.graphKey !== undefined
      ? f.graphKeys === null || f.graphKeys.includes(f.graphKey)
        ? [f.graphKey]
        : []
      : f.graphKeys;
  const graphs =
    keys === null
      ? sql`true`
      : sql`n.graph_id in (select d.graph_id from graph_directory d
          where d.account_id = ${f.accountId} and d.graph_key = any(${keys}::text[]))`;
  const types = f.types === undefined ? sql`true` : sql`n.type = any(${f.types}::text[])`;
  return sql`${graphs} and ${types}`;
}
