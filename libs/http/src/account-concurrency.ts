/**
 * A bound on each account's concurrent expensive requests in this process: past `limit` running,
 * requests wait in order for a slot; past `maxWaiting` waiting, they are refused (null), so one
 * account cannot hold every connection to the database or the event loop.
 */
export class AccountConcurrency {
  private readonly running = new Map<number, number>();
  private readonly waiting = new Map<number, (() => void)[]>();

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  /** A release function once the account has a slot, or null when too many wait already. */
  async acquire(accountId: number): Promise<(() => void) | null> {
    if ((this.running.get(accountId) ?? 0) >= this.limit) {
      const queue = this.waiting.get(accountId) ?? [];
      if (queue.length >= this.maxWaiting) return null;
      this.waiting.set(accountId, queue);
      // the slot is handed over by release(), which keeps the running count as it is
      await new Promise<void>((resolve) => queue.push(resolve));
    } else {
      this.running.set(accountId, (this.running.get(accountId) ?? 0) + 1);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(accountId);
    };
  }

  private release(accountId: number): void {
    const queue = this.waiting.get(accountId);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.waiting.delete(accountId);
    if (next) return next();
    const n = (this.running.get(accountId) ?? 1) - 1;
    if (n <= 0) this.running.delete(accountId);
    else this.running.set(accountId, n);
  }
}
