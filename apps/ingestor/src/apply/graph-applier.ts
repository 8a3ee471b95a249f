import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import {
  ActiveWindow,
  AppliedEvent,
  applyEvent,
  createGraphState,
  emptyCounts,
  GraphState,
  graphStateFromRows,
  type PriceTable,
} from '@graph-history/domain';
import {
  ActiveBefore,
  AppliedJsonEncoder,
  ApplyHead,
  ApplyRepository,
  ApplyStall,
  Db,
  GraphApplyLockRepository,
  GraphStateRepository,
  InboxEvent,
  isTransientDbError,
  Transactions,
} from '@graph-history/db';
import { CONFIG } from '@graph-history/http';
import { CachedGraph, GraphStateCache } from './graph-state-cache';
import { NoticeMaker } from './notice-maker';
import { retainedFirstSeq } from './retention';
import { MODEL_PRICES } from '../tokens';

/** What `applyPending` (or one of its batches) did. */
export interface ApplyOutcome {
  applied: number;
  /** Retention moved first_seq: the trim job has rows to delete. */
  trimDue: boolean;
  /** For each applied event, ms from being stored to being applied (committed). */
  delaysMs: number[];
  /** The graph stopped at an event that could not be applied, and this call recorded it (once). */
  stalled: ApplyStall | null;
  /** The graph's newest applied sequence after this batch (0 when nothing was applied). */
  appliedSeq: number;
  /** The newest notice this call (or batch) wrote, with its account; null when it wrote none. */
  notices: NewNotices | null;
}

/** Notices were written for `accountId`, up to number `noticeNo`. */
export interface NewNotices {
  accountId: number;
  noticeNo: number;
}

/**
 * The settings of the apply path: events applied per batch (one read, one write statement), and
 * the staleness threshold of the counts stored with each event (the read API's setting).
 */
export type ApplySettings = Pick<Config, 'APPLY_BATCH_SIZE' | 'STALE_AFTER_MS'>;

interface BatchResult {
  events: InboxEvent[];
  notices: NewNotices | null;
  /** The graph's applied_seq after this batch. */
  appliedSeq: number;
  trimDue: boolean;
  /** More events were stored than this batch held when it was read. */
  more: boolean;
}

/** How long an applier waits for another one of the same graph to finish, and how often it looks. */
const LOCK_WAIT_MS = 5_000;
const LOCK_POLL_MS = 10;

type PendingRun = Awaited<ReturnType<ApplyRepository['pending']>>;

/** The reducer refused the event at `index` of the run; `recorded` when this call quarantined it. */
interface Refused {
  refused: {
    index: number;
    recorded: boolean;
    stall: ApplyStall | null;
    notice: NewNotices | null;
  };
}

/** Applying a run of several events failed for good: one of them, up to `throughSeq`, is at fault. */
interface Failed {
  failed: { throughSeq: number };
}

/** At most this much of an error's text is kept as the stall's reason. */
const STALL_ERROR_MAX = 2_000;

/** An outcome with nothing applied yet. */
const noOutcome = (): ApplyOutcome => ({
  applied: 0,
  trimDue: false,
  delaysMs: [],
  stalled: null,
  appliedSeq: 0,
  notices: null,
});

/**
 * The apply path: turns a graph's stored inbox events, in seq order, into events, version rows
 * and records through the pure reducer. Each batch is written by ONE statement that also
 * advances applied_seq and deletes the applied inbox rows, and that writes nothing unless
 * applied_seq is still what the batch was read after. So every stored event is applied exactly
 * once, whichever process runs it and whenever a process dies. A run holds the graph's advisory
 * lock, so that two appliers (BullMQ jobs, rescues, the in-process fallback while Redis is away,
 * other processes) never work on one graph at once: a second one waits for the first to finish.
 */
@Injectable()
export class GraphApplier {
  constructor(
    private readonly transactions: Transactions,
    private readonly applyRows: ApplyRepository,
    private readonly stateRows: GraphStateRepository,
    private readonly cache: GraphStateCache,
    private readonly lock: GraphApplyLockRepository,
    private readonly noticeMaker: NoticeMaker,
    @Inject(CONFIG) private readonly settings: ApplySettings,
    @Inject(MODEL_PRICES) private readonly prices: PriceTable,
  ) {}

  /**
   * Applies every event of the graph stored before the call, one committed batch at a time, under
   * the graph's apply lock; `onBatch` hears of each batch as soon as it is committed. While another
   * applier holds the lock it waits (up to LOCK_WAIT_MS; then the sweeper has the rest applied).
   */
  async applyPending(
    graphId: number,
    onBatch: (batch: ApplyOutcome) => void = () => undefined,
  ): Promise<ApplyOutcome> {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      const run = await this.lock.withApplyLock(graphId, (conn) =>
        this.applyLocked(conn, graphId, onBatch),
      );
      if (run) return run.value;
      if (Date.now() >= deadline) return noOutcome();
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }

  /** applyPending's body, its statements on `conn`, the connection holding the lock. */
  private async applyLocked(
    conn: Db,
    graphId: number,
    onBatch: (batch: ApplyOutcome) => void,
  ): Promise<ApplyOutcome> {
    const total = noOutcome();
    let limit = this.settings.APPLY_BATCH_SIZE;
    // After a run failed for good, its events are applied one per batch up to here, so that the
    // events before the one at fault are applied and the graph is quarantined at that one.
    let isolateThrough = 0;
    for (;;) {
      const batch = await this.applyBatch(conn, graphId, limit);
      limit = this.settings.APPLY_BATCH_SIZE;
      if (batch === 'done') return total;
      if (batch === 'lost-race') continue;
      if ('failed' in batch) {
        isolateThrough = batch.failed.throughSeq;
        limit = 1;
        continue;
      }
      if ('refused' in batch) {
        // Events before the refused one are applied first (the state is rebuilt for them).
        if (batch.refused.index > 0) {
          limit = batch.refused.index;
          continue;
        }
        total.stalled = batch.refused.recorded ? batch.refused.stall : null;
        if (batch.refused.recorded) total.notices = batch.refused.notice ?? total.notices;
        return total;
      }
      const appliedAt = Date.now();
      const outcome = {
        applied: batch.events.length,
        trimDue: batch.trimDue,
        delaysMs: batch.events.map((e) => appliedAt - e.received),
        stalled: null,
        appliedSeq: batch.appliedSeq,
        notices: batch.notices,
      };
      onBatch(outcome);
      if (batch.appliedSeq < isolateThrough) limit = 1;
      total.appliedSeq = batch.appliedSeq;
      total.applied += outcome.applied;
      total.trimDue ||= outcome.trimDue;
      total.delaysMs.push(...outcome.delaysMs);
      total.notices = batch.notices ?? total.notices;
      // Events stored after the batch was read enqueue an apply of their own: no need to look.
      if (!batch.more) return total;
    }
  }

  /**
   * Reads the next stored events, reduces them and commits the result in one statement that
   * succeeds only if no other applier committed meanwhile ('lost-race': nothing was written).
   * An event the reducer refuses is not retried: the first one of the run quarantines the graph;
   * a later one is reported with its index, so that the events before it can be applied alone.
   * Any other failure that retrying cannot mend (a data error of Postgres, an encoding error) is
   * treated alike: a run of one event quarantines the graph at it, a longer run is reported so
   * that its events are tried one by one. A transient failure (a lost connection) is thrown, for
   * the job to be retried.
   */
  private async applyBatch(
    conn: Db,
    graphId: number,
    limit: number,
  ): Promise<BatchResult | Refused | Failed | 'done' | 'lost-race'> {
    const pending = await this.applyRows.in(conn).pending(graphId, limit);
    if (!hasWork(pending)) return 'done';
    try {
      return await this.reduceAndCommit(conn, graphId, limit, pending);
    } catch (err) {
      if (isTransientDbError(err)) throw err;
      const { head, events } = pending;
      if (events.length > 1) return { failed: { throughSeq: head.appliedSeq + events.length } };
      const key = events[0]?.event.key ?? '?';
      const stall = {
        seq: head.appliedSeq + 1,
        error: `event ${key} (seq ${head.appliedSeq + 1}) could not be applied: ${describe(err)}`,
        at: Date.now(),
      };
      return this.quarantine(conn, graphId, head, stall, events[0]?.event.key ?? null);
    }
  }

  /** applyBatch's work once it knows there are `pending` events; throws what it cannot handle. */
  private async reduceAndCommit(
    conn: Db,
    graphId: number,
    limit: number,
    firstRead: NonNullable<PendingRun>,
  ): Promise<BatchResult | Refused | 'done' | 'lost-race'> {
    let pending: PendingRun = firstRead;
    let graph = this.cache.take(graphId, pending.head.appliedSeq);
    if (!graph) ({ pending, graph } = await this.load(conn, graphId, limit));
    if (!hasWork(pending)) return 'done';

    const { head, events } = pending;
    const { state } = graph;
    const reduced = reduce(graph, head.appliedSeq, events, this.settings.STALE_AFTER_MS);
    if ('refusal' in reduced) {
      // The state may hold part of the refused event: it stays out of the cache.
      const { index, reason } = reduced.refusal;
      if (index > 0) return { refused: { index, recorded: false, stall: null, notice: null } };
      const stall = { seq: head.appliedSeq + 1, error: reason, at: Date.now() };
      return this.quarantine(conn, graphId, head, stall, events[0]!.event.key);
    }
    const { applied, activeBefore } = reduced;
    const appliedSeq = head.appliedSeq + events.length;
    const firstSeq = retainedFirstSeq(head.firstSeq, appliedSeq);
    const commit = (db: Db) =>
      this.applyRows
        .in(db)
        .commitIfCurrent(
          graphId,
          head.appliedSeq,
          applied,
          { appliedSeq, firstSeq, lastEvent: state.lastCreated, counts: state.counts },
          Date.now(),
          activeBefore,
          graph.json,
        );
    const made = this.noticeMaker.made(applied);
    let committed: boolean;
    let lastNotice: number | null = null;
    if (made.length === 0) committed = await commit(conn);
    else {
      // a notice exists iff its event does: both are written by one transaction
      lastNotice = await this.transactions.run(async (trx) => {
        if (!(await commit(trx))) return null;
        return this.noticeMaker.write(trx, graphId, head, made);
      }, conn);
      committed = lastNotice !== null;
      if (committed) await this.applyRows.in(conn).flushCommitted();
    }
    // The state was taken out of the cache; only a committed one goes back.
    if (!committed) return 'lost-race';
    this.cache.put(graph);
    return {
      events,
      notices: lastNotice === null ? null : { accountId: head.accountId, noticeNo: lastNotice },
      appliedSeq,
      trimDue: firstSeq > (head.firstSeq ?? 1),
      more: appliedSeq < head.ingestedSeq,
    };
  }

  /**
   * Quarantines the graph at the event after `head` and, in the same statement, writes its
   * graph.quarantined notice (only when this call is the one that recorded the stall).
   */
  private async quarantine(
    conn: Db,
    graphId: number,
    head: ApplyHead,
    stall: ApplyStall,
    eventKey: string | null,
  ): Promise<Refused> {
    const { notice, recorded } = await this.transactions.run(async (trx) => {
      const notice = await this.noticeMaker.quarantineRow(trx, graphId, head, stall, eventKey);
      const recorded = await this.applyRows
        .in(trx)
        .recordStall(graphId, head.appliedSeq, stall, notice);
      return { notice, recorded };
    }, conn);
    const made = recorded ? { accountId: head.accountId, noticeNo: notice.notice_no! } : null;
    return { refused: { index: 0, recorded, stall, notice: made } };
  }

  /** The pending events and the reducer state rebuilt from the rows, read in one snapshot. */
  private load(
    conn: Db,
    graphId: number,
    limit: number,
  ): Promise<{ pending: PendingRun | null; graph: CachedGraph }> {
    return this.transactions.snapshot(async (trx) => {
      const pending = await this.applyRows.in(trx).pending(graphId, limit);
      if (!pending || pending.head.appliedSeq === 0)
        return { pending, graph: withWindow(createGraphState(graphId, this.prices)) };
      const { head } = pending;
      const rows = await this.stateRows.in(trx).currentRows(graphId);
      const state = graphStateFromRows({
        graphId,
        lastSeq: head.appliedSeq,
        lastCreated: head.lastEvent ?? 0,
        counts: head.counts ?? emptyCounts(),
        ...rows,
        prices: this.prices,
      });
      return { pending, graph: withWindow(state) };
    }, conn);
  }
}

const describe = (err: unknown): string =>
  (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, STALL_ERROR_MAX);

const withWindow = (state: GraphState): CachedGraph => ({
  state,
  active: ActiveWindow.of(state.nodes.values()),
  json: new AppliedJsonEncoder(state.graphId),
});

/** Work is left when events are stored beyond applied_seq and the graph is not quarantined. */
function hasWork(pending: PendingRun | null): pending is NonNullable<PendingRun> {
  return (
    pending !== null &&
    pending.head.appliedSeq < pending.head.ingestedSeq &&
    pending.head.stalledSeq === null
  );
}

/**
 * Runs the reducer over a contiguous run of inbox events that must follow `appliedSeq`. An event
 * the reducer throws on is a refusal (its index and why), not an error: retrying cannot help.
 * Before each event, counts the working nodes not stale at its stored `created` (the window
 * still holds the nodes as of the event before; it takes the event's versions afterwards).
 */
function reduce(
  { state, active }: CachedGraph,
  appliedSeq: number,
  events: InboxEvent[],
  staleAfterMs: number,
):
  | { applied: AppliedEvent[]; activeBefore: ActiveBefore }
  | { refusal: { index: number; reason: string } } {
  if (events.length === 0)
    throw new Error(
      `graph ${state.graphId}: ingested_seq is ahead of applied_seq ${appliedSeq} but its inbox is empty`,
    );
  const applied: AppliedEvent[] = [];
  const activeBefore: ActiveBefore = { staleAfterMs, counts: [] };
  for (const [i, { seq, event }] of events.entries()) {
    if (seq !== appliedSeq + 1 + i) {
      throw new Error(
        `graph ${state.graphId}: inbox holds seq ${seq} where ${appliedSeq + 1 + i} was expected`,
      );
    }
    let out: AppliedEvent;
    try {
      out = applyEvent(state, event, seq);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return { refusal: { index: i, reason: `event ${event.key} (seq ${seq}): ${reason}` } };
    }
    applied.push(out);
    activeBefore.counts.push(active.countSince(out.event.created - staleAfterMs));
    for (const version of out.versions) active.note(version);
  }
  return { applied, activeBefore };
}
