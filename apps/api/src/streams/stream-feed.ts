import type { SseStream } from './sse-stream';

/** How long a read that failed on the database waits before it is tried again. */
export const RETRY_MS = 1_000;

/** Failed reads in a row (one a second) before a catching-up stream ends with an error. */
export const MAX_READ_FAILURES = 30;

/** A stream as its feed sees it: `seq` is the position through which it has read. */
export type FedStream = SseStream & { seq: number };

/**
 * The open streams that one read serves (a graph's streams of one expansion, an account's notice
 * streams). Announcements set the target; one read at a time (`readNew`) brings the live streams
 * there, and an announcement made meanwhile runs it again. A stream that is behind catches up
 * alone and joins when it has reached the feed.
 */
export abstract class StreamFeed<S extends FedStream> {
  readonly streams = new Set<S>();
  /** The newest position read for the live streams; null while none is live. */
  protected seq: number | null = null;
  /** The newest position announced. */
  protected target = 0;
  private running = false;
  private again = false;
  private poll = false;

  /** Brings the live streams from `seq` to `target` (or to whatever is new, when `poll`). */
  protected abstract readNew(poll: boolean): Promise<void>;

  /** Through `seq` is written; null: unknown, read whatever is new (polling). */
  announce(seq: number | null): void {
    if (seq === null) this.poll = true;
    else if (seq > this.target) this.target = seq;
    else return;
    this.kick();
  }

  /** Makes a caught-up stream live, unless the feed is past it (then it catches up again). */
  join(stream: S): boolean {
    if (this.seq === null || (!this.running && this.liveStreams().length === 0)) {
      this.seq = stream.seq;
    } else if (stream.seq < this.seq) {
      return false;
    }
    stream.live = true;
    if (this.target > this.seq) this.kick();
    return true;
  }

  protected kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.pump().finally(() => (this.running = false));
  }

  protected liveStreams(): S[] {
    const live: S[] = [];
    for (const s of this.streams) if (s.live && !s.closed) live.push(s);
    return live;
  }

  private async pump(): Promise<void> {
    do {
      this.again = false;
      const poll = this.poll;
      this.poll = false;
      await this.readNew(poll);
    } while (this.again || this.poll);
  }
}
