import type { PendingGraph } from '@graph-history/db';

/**
 * Which graphs' apply looks stuck, from one sweep to the next: graphs that had unapplied events at
 * the previous sweep and whose applied_seq has not moved since. At the first sweep every graph with
 * unapplied events counts: its apply job may be held by a process that died, which BullMQ keeps
 * locked, with its deduplication id taken, until the lock expires and a stall check reclaims it.
 */
export class ApplyProgress {
  /** applied_seq of each graph that had unapplied events at the previous sweep; null before it. */
  private previous: ReadonlyMap<number, number> | null = null;

  stuck(graphs: readonly PendingGraph[]): number[] {
    const pending = graphs.filter((g) => g.unapplied > 0);
    const previous = this.previous;
    this.previous = new Map(pending.map((g) => [g.graphId, g.appliedSeq]));
    return pending
      .filter((g) => previous === null || previous.get(g.graphId) === g.appliedSeq)
      .map((g) => g.graphId);
  }
}
