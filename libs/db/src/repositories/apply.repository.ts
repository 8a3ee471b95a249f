import { sql } from 'kysely';
import type { AppliedEvent, StoredGraphCounts, WatchEvent } from '@graph-history/domain';
import { executeNamed } from '../named-statement';
import { Repository } from './repository';
import { AppliedJsonEncoder } from './applied-json';
import { ActiveBefore, appliedRows } from './applied-rows';
import {
  EVENT_COLUMNS,
  MESSAGE_COLUMNS,
  SNAPSHOT_COLUMNS,
  SPAWN_COLUMNS,
  VERSION_COLUMNS,
  WAIT_COLUMNS,
  NOTICE_COLUMNS,
} from './apply-columns';
import { insertRowsSql } from './insert-rows';
import type { NoticeInsert } from './notice.repository';
import { GenerateSql } from '../sql-text/generate-sql';

/** The apply side of a `graphs` row. */
export interface ApplyHead {
  accountId: number;
  graphKey: string;
  ingestedSeq: number;
  appliedSeq: number;
  /** Oldest retained seq; null before the first applied event. */
  firstSeq: number | null;
  /** Stored `created` of the newest applied event; null before the first. */
  lastEvent: number | null;
  counts: StoredGraphCounts | null;
  /** The stored event the reducer refused: the graph applies nothing until it is resolved. */
  stalledSeq: number | null;
}

/** Why a graph stopped applying: the event at `seq` was refused by the reducer. */
export interface ApplyStall {
  seq: number;
  error: string;
  /** When the stall was recorded (ms). */
  at: number;
}

/** A stored, not yet applied event: `seq` is its final sequence number. */
export interface InboxEvent {
  seq: number;
  event: WatchEvent;
  /** When the ingestor stored it (ms). */
  received: number;
}

/** What the graph row holds once a run of events is applied. */
export interface AppliedHead {
  appliedSeq: number;
  firstSeq: number;
  lastEvent: number;
  counts: StoredGraphCounts;
}

/** Stored size of event bodies after which an apply batch reads no further (see pending). */
export const APPLY_READ_BYTES = 16 * 1024 * 1024;

/** The apply path: read the next stored events of a graph, write what the reducer produced. */
export class ApplyRepository extends Repository {
  /**
   * The graph's apply head and up to `limit` stored events after applied_seq, in one query; an
   * event is read only while the stored size of the bodies before it is under `maxBytes` (the
   * first always is), so one read holds at most `maxBytes` plus one event, whatever their sizes.
   */
  @GenerateSql({ params: [1, 100] })
  async pending(
    graphId: number,
    limit: number,
    maxBytes = APPLY_READ_BYTES,
  ): Promise<{ head: ApplyHead; events: InboxEvent[] } | null> {
    const rows = await executeNamed(
      this.db,
      'gh_apply_pending',
      sql<{
        account_id: number;
        graph_key: string;
        ingested_seq: number;
        applied_seq: number;
        first_seq: number | null;
        last_event: number | null;
        counts: StoredGraphCounts | null;
        stalled_seq: number | null;
        seq: number | null;
        body: WatchEvent | null;
        received: number | null;
      }>`select g.account_id, g.graph_key, g.ingested_seq, g.applied_seq, g.first_seq, g.last_event, g.stalled_seq, i.seq, i.body, i.received,
        -- on the first row only: every other row would have its jsonb parsed again for nothing
        case when row_number() over (order by i.seq) = 1 then g.counts end as counts
      from graphs g
      left join lateral (
        select seq, body, received from (
          select seq, body, received, pg_column_size(body) as size,
            sum(pg_column_size(body)) over (order by seq) as upto
          from inbox
          where graph_id = g.graph_id and seq > g.applied_seq order by seq limit ${limit}) r
        where upto - size < ${maxBytes}
      ) i on true
      where g.graph_id = ${graphId}
      order by i.seq`,
    );
    const first = rows[0];
    if (!first) return null;
    return {
      head: {
        accountId: first.account_id,
        graphKey: first.graph_key,
        ingestedSeq: first.ingested_seq,
        appliedSeq: first.applied_seq,
        firstSeq: first.first_seq,
        lastEvent: first.last_event,
        counts: first.counts,
        stalledSeq: first.stalled_seq,
      },
      events: rows
        .filter((r) => r.seq !== null)
        .map((r) => ({ seq: r.seq!, event: r.body!, received: r.received! })),
    };
  }

  /**
   * Writes a run of applied events (in seq order) in ONE statement, only if the graph's
   * applied_seq is still `afterSeq`: events, node versions (ending the stored current version of
   * each node the run writes), task snapshots, spawns, messages,
   * waits opened and closed, the graph's new head, and the deletion of the applied inbox rows.
   * Each event row gets its `activeBefore` count (null columns without one). `notices` (what the
   * run's events made) are written by the same statement: a notice exists iff its event does.
   * False when another applier committed first and nothing was written: two appliers of a graph
   * can never both apply the same events. The commit does not wait for the WAL flush (see below).
   * `json` encodes the rows' public JSON: the graph's own encoder, or a new one (encodes all).
   */
  @GenerateSql({
    params: [1, 0, [], { appliedSeq: 1, firstSeq: 1, lastEvent: 1_000, counts: {} }, 1_000, null],
  })
  async commitIfCurrent(
    graphId: number,
    afterSeq: number,
    applied: AppliedEvent[],
    head: AppliedHead,
    appliedAt: number,
    activeBefore: ActiveBefore | null,
    notices: NoticeInsert[] = [],
    json = new AppliedJsonEncoder(graphId),
  ): Promise<boolean> {
    const rows = appliedRows(graphId, applied, appliedAt, activeBefore, json);
    const closed = rows.waitsClosed;
    const advanced = sql`exists (select 1 from advanced)`;
    const [result] = await executeNamed(
      this.db,
      'gh_apply_commit',
      sql<{ advanced: number }>`with
        advanced as (
          update graphs
          set applied_seq = ${head.appliedSeq}, first_seq = ${head.firstSeq},
              last_event = ${head.lastEvent}, counts = ${JSON.stringify(head.counts)}::jsonb
          where graph_id = ${graphId} and applied_seq = ${afterSeq} returning 1),
        new_events as (${insertRowsSql('events', EVENT_COLUMNS, rows.events, advanced)}),
        new_versions as (${insertRowsSql('node_versions', VERSION_COLUMNS, rows.versions, advanced)}),
        superseded as (
          update node_versions v set superseded_seq = n.valid_from
          from unnest(${rows.firstVersions.nodeNos}::int[], ${rows.firstVersions.validFrom}::bigint[])
            as n(node_no, valid_from)
          where v.graph_id = ${graphId} and v.node_no = n.node_no and ${advanced}
            and v.valid_from = (select max(p.valid_from) from node_versions p
              where p.graph_id = ${graphId} and p.node_no = n.node_no and p.valid_from < n.valid_from)),
        new_snapshots as (${insertRowsSql('task_snapshots', SNAPSHOT_COLUMNS, rows.snapshots, advanced)}),
        new_spawns as (${insertRowsSql('spawns', SPAWN_COLUMNS, rows.spawns, advanced)}),
        new_messages as (${insertRowsSql('messages', MESSAGE_COLUMNS, rows.messages, advanced)}),
        new_waits as (${insertRowsSql('waits', WAIT_COLUMNS, rows.waitsOpened, advanced)}),
        closed_waits as (
          update waits w set ended_seq = c.ended_seq, ended = c.ended
          from unnest(${closed.nodeNos}::int[], ${closed.onNos}::int[], ${closed.startedSeqs}::bigint[],
            ${closed.endedSeqs}::bigint[], ${closed.ended}::bigint[])
            as c(node_no, on_no, started_seq, ended_seq, ended)
          where w.graph_id = ${graphId} and w.node_no = c.node_no and w.on_no = c.on_no
            and w.started_seq = c.started_seq and ${advanced}),
        new_notices as (${insertRowsSql('notices', NOTICE_COLUMNS, notices, advanced)}),
        applied_inbox as (
          delete from inbox where graph_id = ${graphId} and seq <= ${head.appliedSeq} and ${advanced})
      select (select count(*)::int from advanced) as advanced,
        -- No wait for the WAL flush: a run lost to a crash is lost whole, inbox rows included,
        -- and is applied again. (A later synchronous commit flushes it anyway.)
        set_config('synchronous_commit', 'off', true) as asynchronous`,
    );
    return result!.advanced === 1;
  }

  /**
   * Makes the transaction that holds commitIfCurrent wait for the WAL flush after all: a run that
   * made notices is published (streams, webhooks) only once it cannot be lost to a crash, since a
   * notice applied again would get another id.
   */
  @GenerateSql({ params: [] })
  async commitDurably(): Promise<void> {
    await sql`select set_config('synchronous_commit', 'on', true)`.execute(this.db);
  }

  /**
   * Quarantines the graph at the event the reducer refused, only if applied_seq is still
   * `afterSeq` (the event is the next one) and no stall is recorded yet. True when this call
   * recorded it: the caller reports a stall once, however many appliers meet it. The
   * graph.quarantined `notice`, when given, is written by the same statement, only then.
   */
  @GenerateSql({ params: [1, 0, { seq: 1, error: 'refused', at: 1_000 }] })
  async recordStall(
    graphId: number,
    afterSeq: number,
    stall: ApplyStall,
    notice?: NoticeInsert,
  ): Promise<boolean> {
    const recorded = sql`exists (select 1 from stalled)`;
    const { rows } = await sql<{ stalled: number }>`with
      stalled as (
        update graphs set stalled_seq = ${stall.seq}, stalled_error = ${stall.error},
          stalled_at = ${stall.at}
        where graph_id = ${graphId} and applied_seq = ${afterSeq} and stalled_seq is null
        returning 1),
      new_notice as (${insertRowsSql('notices', NOTICE_COLUMNS, notice ? [notice] : [], recorded)})
      select (select count(*)::int from stalled) as stalled`.execute(this.db);
    return rows[0]!.stalled === 1;
  }
}
