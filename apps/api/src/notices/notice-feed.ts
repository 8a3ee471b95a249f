import { RETRY_MS, StreamFeed } from '../streams/stream-feed';
import type { NoticeReader } from './notice-reader';
import type { NoticeStream } from './notice-stream';

/**
 * The open notice streams of one account. An announcement (a notice number) is read once for all
 * of them (one page of the account's notices per announcement, never one per stream) and offered
 * to every live stream, each taking what its filter wants. A stream joins once its own catch-up
 * has read at least as far as the feed. An account's notices become visible in number order (see
 * NoticeRepository.reserveNumbers), so reading "after the newest seen" misses none.
 */
export class NoticeFeed extends StreamFeed<NoticeStream> {
  constructor(
    private readonly accountId: number,
    private readonly reader: NoticeReader,
  ) {
    super();
  }

  protected async readNew(poll: boolean): Promise<void> {
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
