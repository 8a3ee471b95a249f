import type { NoticeReader } from './notice-reader';
import type { NoticeStream } from './notice-stream';

/** How long a read that failed on the database waits before it is tried again. */
const RETRY_MS = 1_000;

/**
 * The open notice streams of one account. An announcement is read once for all of them (one
 * page of the account's notices per announcement, never one per stream) and offered to every live
 * stream, each taking what its filter wants. A stream joins once its own catch-up has read at
 * least as far as the feed. An account's notices become visible in number order (see
 * NoticeRepository.reserveNumbers), so reading "after the newest seen" misses none.
 */
export class NoticeFeed {
  readonly streams = new Set<NoticeStream>();
  /** The newest notice number read for the live streams; null while none is live. */
  private seq: number | null = null;
  private target = 0;
  private running = false;
  private again = false;
  private poll = false;

  constructor(
    private readonly accountId: number,
    private readonly reader: NoticeReader,
  ) {}

  /** Notices through `noticeNo` are written; null: unknown, read whatever is new (polling). */
  announce(noticeNo: number | null): void {
    if (noticeNo === null) this.poll = true;
    else if (noticeNo > this.target) this.target = noticeNo;
    else return;
    this.kick();
  }

  /** Makes a caught-up stream live, unless the feed has read past it (it catches up again). */
  join(stream: NoticeStream): boolean {
    if (this.seq === null || (!this.running && this.liveStreams().length === 0)) {
      this.seq = stream.seq;
    } else if (stream.seq < this.seq) {
      return false;
    }
    stream.live = true;
    if (this.target > this.seq) this.kick();
    return true;
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.pump().finally(() => (this.running = false));
  }

  private liveStreams(): NoticeStream[] {
    const live: NoticeStream[] = [];
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

  private async readNew(poll: boolean): Promise<void> {
    for (;;) {
      if (this.liveStreams().length === 0 || this.seq === null) return;
      if (!poll && this.seq >= this.target) return;
      let page;
      try {
        page = await this.reader.after({ accountId: this.accountId, graphKeys: null }, this.seq);
      } catch {
        // the database failed: the same read again shortly
        setTimeout(() => this.kick(), RETRY_MS).unref();
        return;
      }
      if (page.items.length === 0) return;
      for (const s of this.liveStreams()) s.offer(page.items);
      this.seq = page.items[page.items.length - 1]!.noticeNo;
      if (!page.more) return;
    }
  }
}
