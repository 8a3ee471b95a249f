/**
 * The store slots of one ingestor process, shared by accounts and work-conserving: a batch takes a
 * free slot whatever its account holds already (a lone account may use them all); when none is
 * free it waits, and a slot given back goes to the waiting account that holds the fewest (accounts
 * holding as many take turns). So an account is held back only while another account's batch
 * waits, and then for no longer than one store. Past `maxWaiting` batches of one account waiting,
 * its next ones are refused (null).
 */
export class StoreSlots {
  private free: number;
  private readonly held = new Map<number, number>();
  /** Waiting batches by account; the map's order is the accounts' turn among equals. */
  private readonly waiting = new Map<number, (() => void)[]>();

  constructor(
    slots: number,
    private readonly maxWaiting: number,
  ) {
    this.free = slots;
  }

  /** A release function once the batch holds a slot, or null when too many of its account wait. */
  async acquire(accountId: number): Promise<(() => void) | null> {
    if (this.free > 0) {
      this.free--;
      this.hold(accountId, 1);
    } else {
      const queue = this.waiting.get(accountId) ?? [];
      if (queue.length >= this.maxWaiting) return null;
      this.waiting.set(accountId, queue);
      // the slot is handed over by release(), which counts it as held by this account
      await new Promise<void>((resolve) => queue.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(accountId);
    };
  }

  /** Slots held by the account now (for tests and metrics). */
  heldBy(accountId: number): number {
    return this.held.get(accountId) ?? 0;
  }

  private release(accountId: number): void {
    this.hold(accountId, -1);
    const next = this.nextAccount();
    if (next === undefined) {
      this.free++;
      return;
    }
    const queue = this.waiting.get(next)!;
    const resolve = queue.shift()!;
    // its turn is taken: it goes last among the accounts that wait
    this.waiting.delete(next);
    if (queue.length > 0) this.waiting.set(next, queue);
    this.hold(next, 1);
    resolve();
  }

  /** The waiting account holding the fewest slots, the first in turn among equals. */
  private nextAccount(): number | undefined {
    let next: number | undefined;
    let fewest = Infinity;
    for (const accountId of this.waiting.keys()) {
      const held = this.heldBy(accountId);
      if (held < fewest) [next, fewest] = [accountId, held];
    }
    return next;
  }

  private hold(accountId: number, delta: number): void {
    const n = this.heldBy(accountId) + delta;
    if (n > 0) this.held.set(accountId, n);
    else this.held.delete(accountId);
  }
}
