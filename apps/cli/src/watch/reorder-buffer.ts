/** A prepared line waiting in the timeline. */
export interface HeldLine<P> {
  line: P;
  /** Transcript time; lines without one sort first (the adapter reports them). */
  ts: number;
  seq: number;
  arrivedAt: number;
  /** Key of the file the line came from. */
  file: string;
}

const byTime = <P>(a: HeldLine<P>, b: HeldLine<P>) => a.ts - b.ts || a.seq - b.seq;

/**
 * The reorder window of a live graph. Lines of several files are held for `windowMs` after they
 * were read; a line of another file read meanwhile with an earlier timestamp goes first. A line
 * is released when it has waited the whole window, when it is not later than `until` (a hook
 * says the transcripts were written up to then, or a back-fill read every file that far), or
 * when a released line is later than it. Released lines come sorted by time, ties in read order.
 */
export class ReorderBuffer<P> {
  private held: HeldLine<P>[] = [];
  private seq = 0;

  constructor(readonly windowMs: number) {}

  get size(): number {
    return this.held.length;
  }

  add(file: string, line: P, ts: number | undefined, now: number): HeldLine<P> {
    const held = {
      line,
      ts: ts ?? Number.NEGATIVE_INFINITY,
      seq: this.seq++,
      arrivedAt: now,
      file,
    };
    this.held.push(held);
    return held;
  }

  /** When the oldest held line has waited the whole window (undefined when nothing is held). */
  nextDeadline(): number | undefined {
    if (this.held.length === 0) return undefined;
    let oldest = Number.POSITIVE_INFINITY;
    for (const h of this.held) oldest = Math.min(oldest, h.arrivedAt);
    return oldest + this.windowMs;
  }

  release(now: number, until = Number.NEGATIVE_INFINITY): HeldLine<P>[] {
    let upTo = until;
    for (const h of this.held) if (h.arrivedAt + this.windowMs <= now) upTo = Math.max(upTo, h.ts);
    return this.take((h) => h.ts <= upTo || h.arrivedAt + this.windowMs <= now);
  }

  releaseAll(): HeldLine<P>[] {
    return this.take(() => true);
  }

  private take(pick: (h: HeldLine<P>) => boolean): HeldLine<P>[] {
    const out: HeldLine<P>[] = [];
    const keep: HeldLine<P>[] = [];
    for (const h of this.held) (pick(h) ? out : keep).push(h);
    this.held = keep;
    return out.sort(byTime);
  }
}
