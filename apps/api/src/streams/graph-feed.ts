import { ApiError } from '@graph-history/http';
import { formatEvents, type EventStream, type StreamItem } from './event-stream';
import { RETRY_MS, StreamFeed } from './stream-feed';
import type { StreamPageReader } from './stream-page-reader';

/**
 * The open streams of one graph that share one expansion. A notification is read once for all of
 * them (one page read per notification and feed, never one per stream) and handed to every stream
 * that is live, i.e. positioned at the feed's position or past it; a stream that is behind catches
 * up alone (`rejoin`) and joins when it has reached the feed.
 */
export class GraphFeed extends StreamFeed<EventStream> {
  constructor(
    private readonly graphId: number,
    private readonly reader: StreamPageReader,
    private readonly rejoin: (stream: EventStream) => void,
  ) {
    super();
  }

  /** The newest event a catching-up stream should read through before it joins (0: unknown). */
  get through(): number {
    return Math.max(this.target, this.seq ?? 0);
  }

  protected async readNew(poll: boolean): Promise<void> {
    for (;;) {
      const live = this.liveStreams();
      if (live.length === 0 || this.seq === null) return;
      if (!poll && this.seq >= this.target) return;
      let page;
      try {
        page = await this.reader.read(live[0]!, this.seq, poll ? null : this.target);
      } catch (err) {
        if (!(err instanceof ApiError)) {
          // the database (or a replica) failed: the same read again shortly
          setTimeout(() => this.kick(), RETRY_MS).unref();
          return;
        }
        // e.g. the feed's position was trimmed meanwhile: each stream catches up alone
        for (const s of live) {
          s.live = false;
          this.rejoin(s);
        }
        this.seq = null;
        return;
      }
      this.deliver(page.items);
      if (!page.hasMore) return;
    }
  }

  /** The items, formatted once for the streams at the feed's position (nearly all of them). */
  private deliver(items: StreamItem[]): void {
    const fresh = items.filter((item) => item.seq > (this.seq ?? 0));
    if (fresh.length === 0) return;
    const text = formatEvents(this.graphId, fresh);
    for (const s of this.streams) {
      if (!s.live) continue;
      if (s.seq === this.seq) s.sendFormatted(text, fresh);
      else s.send(items);
    }
    this.seq = fresh[fresh.length - 1]!.seq;
  }
}
