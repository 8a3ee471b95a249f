import { expandTooLarge, expandTooManyBytes } from '../api-errors';

export const MAX_EXPANDED_OBJECTS = 10_000;

/**
 * Counts the objects expansions add to one response and refuses past the cap; `maxBytes` bounds
 * each kind of list each level of expansions reads (see NodeExpander: children and descendants
 * end early, lists held whole are refused).
 */
export class ExpandBudget {
  private used = 0;

  constructor(
    private readonly max = MAX_EXPANDED_OBJECTS,
    readonly maxBytes = Number.MAX_SAFE_INTEGER,
  ) {}

  take(count: number): void {
    this.used += count;
    if (this.used > this.max) throw expandTooLarge(this.max);
  }

  /** Refuses the request: a read of its expansions would pass `maxBytes`. */
  tooManyBytes(): never {
    throw expandTooManyBytes(this.maxBytes);
  }

  /** How many objects may still be added. */
  get left(): number {
    return this.max - this.used;
  }
}
