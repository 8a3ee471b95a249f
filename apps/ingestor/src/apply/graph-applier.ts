import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import {
  AppliedEvent,
  applyEvent,
  createGraphState,
  emptyCounts,
  GraphState,
  graphStateFromRows,
} from '@graph-history/domain';
import { ApplyRepository, GraphStateRepository, InboxEvent, Transactions } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';
import { GraphStateCache } from './graph-state-cache';
import { retainedFirstSeq } from './retention';

/** What `applyPending` (or one of its batches) did. */
export interface ApplyOutcome {
  applied: number;
  /** Retention moved first_seq: the trim job has rows to delete. */
  trimDue: boolean;
  /** For each applied event, ms from being stored to being applied (committed). */
  delaysMs: number[];
}

/** The settings of the apply path: events applied per batch (one read, one write statement). */
export type ApplySettings = Pick<Config, 'APPLY_BATCH_SIZE'>;

interface BatchResult {
  events: InboxEvent[];
  trimDue: boolean;
  /** More events were stored than this batch held when it was read. */
  more: boolean;
}

type PendingRun = Awaited<ReturnType<ApplyRepository['pending']>>;

/**
 * The apply path: turns a graph's stored inbox events, in seq order, into events, version rows
 * and records through the pure reducer. Each batch is written by ONE statement that also
 * advances applied_seq and deletes the applied inbox rows, and that writes nothing unless
 * applied_seq is still what the batch was read after. So every stored event is applied exactly
 * once, whichever process runs it and whenever a process dies. BullMQ's per-graph deduplication
 * keeps two appliers of a graph from running at once, except for the sweeper's rescue jobs.
 */
@Injectable()
export class GraphApplier {
  constructor(
    private readonly transactions: Transactions,
    private readonly applyRows: ApplyRepository,
    private readonly stateRows: GraphStateRepository,
    private readonly cache: GraphStateCache,
    @Inject(CONFIG) private readonly settings: ApplySettings,
  ) {}

  /**
   * Applies every event of the graph stored before the call, one committed batch at a time;
   * `onBatch` hears of each batch as soon as it is committed.
   */
  async applyPending(
    graphId: number,
    onBatch: (batch: ApplyOutcome) => void = () => undefined,
  ): Promise<ApplyOutcome> {
    const total: ApplyOutcome = { applied: 0, trimDue: false, delaysMs: [] };
    for (;;) {
      const batch = await this.applyBatch(graphId);
      if (batch === 'done') return total;
      if (batch === 'lost-race') continue;
      const appliedAt = Date.now();
      const outcome = {
        applied: batch.events.length,
        trimDue: batch.trimDue,
        delaysMs: batch.events.map((e) => appliedAt - e.received),
      };
      onBatch(outcome);
      total.applied += outcome.applied;
      total.trimDue ||= outcome.trimDue;
      total.delaysMs.push(...outcome.delaysMs);
      // Events stored after the batch was read enqueue an apply of their own: no need to look.
      if (!batch.more) return total;
    }
  }

  /**
   * Reads the next stored events, reduces them and commits the result in one statement that
   * succeeds only if no other applier committed meanwhile ('lost-race': nothing was written).
   */
  private async applyBatch(graphId: number): Promise<BatchResult | 'done' | 'lost-race'> {
    let pending = await this.applyRows.pending(graphId, this.settings.APPLY_BATCH_SIZE);
    if (!pending || pending.head.appliedSeq >= pending.head.ingestedSeq) return 'done';
    let state = this.cache.take(graphId, pending.head.appliedSeq);
    if (!state) ({ pending, state } = await this.load(graphId));
    if (!pending || pending.head.appliedSeq >= pending.head.ingestedSeq) return 'done';

    const { head, events } = pending;
    const applied = reduce(state, head.appliedSeq, events);
    const appliedSeq = head.appliedSeq + events.length;
    const firstSeq = retainedFirstSeq(head.firstSeq, appliedSeq);
    const committed = await this.applyRows.commitIfCurrent(
      graphId,
      head.appliedSeq,
      applied,
      { appliedSeq, firstSeq, lastEvent: state.lastCreated, counts: state.counts },
      Date.now(),
    );
    // The state was taken out of the cache; only a committed one goes back.
    if (!committed) return 'lost-race';
    this.cache.put(state);
    return {
      events,
      trimDue: firstSeq > (head.firstSeq ?? 1),
      more: appliedSeq < head.ingestedSeq,
    };
  }

  /** The pending events and the reducer state rebuilt from the rows, read in one snapshot. */
  private load(graphId: number): Promise<{ pending: PendingRun | null; state: GraphState }> {
    return this.transactions.snapshot(async (trx) => {
      const pending = await this.applyRows.in(trx).pending(graphId, this.settings.APPLY_BATCH_SIZE);
      if (!pending || pending.head.appliedSeq === 0)
        return { pending, state: createGraphState(graphId) };
      const { head } = pending;
      const rows = await this.stateRows.in(trx).currentRows(graphId);
      const state = graphStateFromRows({
        graphId,
        lastSeq: head.appliedSeq,
        lastCreated: head.lastEvent ?? 0,
        counts: head.counts ?? emptyCounts(),
        ...rows,
      });
      return { pending, state };
    });
  }
}

/** Runs the reducer over a contiguous run of inbox events that must follow `appliedSeq`. */
function reduce(state: GraphState, appliedSeq: number, events: InboxEvent[]): AppliedEvent[] {
  if (events.length === 0)
    throw new Error(
      `graph ${state.graphId}: ingested_seq is ahead of applied_seq ${appliedSeq} but its inbox is empty`,
    );
  return events.map(({ seq, event }, i) => {
    if (seq !== appliedSeq + 1 + i) {
      throw new Error(
        `graph ${state.graphId}: inbox holds seq ${seq} where ${appliedSeq + 1 + i} was expected`,
      );
    }
    try {
      return applyEvent(state, event, seq);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(
        `graph ${state.graphId}: stored event seq ${seq} (key ${event.key}) could not be applied: ${reason}`,
        { cause: err },
      );
    }
  });
}
