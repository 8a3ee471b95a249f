/** BullMQ's largest job priority (2^21); 1 runs first. */
export const LOWEST_PRIORITY = 2_097_152;

const WINDOW_MS = 1_000;

/**
 * How many of each account's graphs asked to be applied lately (this window or the previous one,
 * a second each), as seen by this process: a measure of the account's apply backlog, since each
 * graph holds at most one apply job. An account's apply jobs get that number as their priority, so
 * a light account's job runs before the jobs of an account with hundreds of graphs queued.
 */
export class AccountBacklog {
  private current = new Map<number, Set<number>>();
  private previous = new Map<number, Set<number>>();
  private windowEnds = 0;

  /** Records that the account's graph asks to be applied; its job's priority (1 runs first). */
  priority(accountId: number, graphId: number, now = Date.now()): number {
    if (now >= this.windowEnds) {
      // a window that ended long ago says nothing about now
      this.previous = now - this.windowEnds < WINDOW_MS ? this.current : new Map();
      this.current = new Map();
      this.windowEnds = now + WINDOW_MS;
    }
    let graphs = this.current.get(accountId);
    if (!graphs) this.current.set(accountId, (graphs = new Set()));
    graphs.add(graphId);
    const backlog = Math.max(graphs.size, this.previous.get(accountId)?.size ?? 0);
    return Math.min(LOWEST_PRIORITY, backlog);
  }
}
