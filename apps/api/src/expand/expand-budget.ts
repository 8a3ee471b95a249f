import { expandTooLarge } from '../api-errors';

export const MAX_EXPANDED_OBJECTS = 10_000;

/** Counts the objects expansions add to one response and refuses past the cap. */
export class ExpandBudget {
  private used = 0;

  constructor(private readonly max = MAX_EXPANDED_OBJECTS) {}

  take(count: number): void {
    this.used += count;
    if (this.used > this.max) throw expandTooLarge(this.max);
  }

  /** How many objects may still be added. */
  get left(): number {
    return this.max - this.used;
  }
}
