import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { CONFIG } from '@graph-history/http';
import { EventFanOut } from '../streams/event-fan-out';
import { MAX_READ_FAILURES, RETRY_MS } from '../streams/stream-feed';
import { StreamKeyCheck } from '../streams/stream-key-check';
import { startStreamTimers, type StreamTimerSettings } from '../streams/stream-timers';
import { NoticeFeed } from './notice-feed';
import { NoticeReader } from './notice-reader';
import type { NoticeStream } from './notice-stream';

/**
 * This process's notice streams, one NoticeFeed per account. They hear of new notices from the
 * event streams' Redis subscription (the ingestor's one publish after an apply commits names the
 * account and its newest notice); while it is away, every feed reads Postgres every
 * STREAM_POLL_MS instead.
 */
@Injectable()
export class NoticeFanOut implements OnModuleInit, BeforeApplicationShutdown {
  private readonly feeds = new Map<number, NoticeFeed>();
  private stopTimers = (): void => {};

  constructor(
    @Inject(CONFIG) private readonly config: StreamTimerSettings,
    private readonly reader: NoticeReader,
    private readonly keys: StreamKeyCheck,
    private readonly events: EventFanOut,
  ) {}

  onModuleInit(): void {
    this.events.listen((m) => {
      if (m.notices) this.feeds.get(m.notices.accountId)?.announce(m.notices.noticeNo);
    });
    this.stopTimers = startStreamTimers(
      this.config,
      this.keys,
      () => this.streams(),
      () => {
        if (this.events.polling) for (const f of this.feeds.values()) f.announce(null);
      },
    );
  }

  beforeApplicationShutdown(): void {
    this.stopTimers();
    for (const s of this.streams()) s.end();
  }

  /** Registers the stream (before it reads anything, so that nothing announced is missed). */
  add(stream: NoticeStream): NoticeFeed {
    let feed = this.feeds.get(stream.accountId);
    if (!feed)
      this.feeds.set(stream.accountId, (feed = new NoticeFeed(stream.accountId, this.reader)));
    const joined = feed;
    joined.streams.add(stream);
    stream.onEnd(() => {
      joined.streams.delete(stream);
      if (joined.streams.size === 0 && this.feeds.get(stream.accountId) === joined)
        this.feeds.delete(stream.accountId);
    });
    return joined;
  }

  /**
   * Reads what the stream misses, with its own filter, until it has read as far as its feed, then
   * makes it live. A position older than the account's oldest kept notice gets a gap message
   * first (NoticeStream.gap). Before each page it reads the account's newest notice number: every notice up
   * to it is visible to the page read after, so the stream's position moves there even when its
   * filter wanted none of them.
   */
  async catchUp(feed: NoticeFeed, stream: NoticeStream): Promise<void> {
    let failures = 0;
    try {
      for (;;) {
        if (stream.closed) return;
        let newest;
        let page;
        try {
          newest = await this.reader.newest(stream.accountId);
          const oldest = await this.reader.oldest(stream.accountId);
          if (stream.seq > 0 && oldest !== null && stream.seq < oldest) stream.gap(oldest, newest);
          page = await this.reader.after(stream.filter, stream.seq);
        } catch (err) {
          if (stream.closed) return;
          if (++failures < MAX_READ_FAILURES) {
            await new Promise((r) => setTimeout(r, RETRY_MS).unref());
            continue;
          }
          throw err;
        }
        failures = 0;
        stream.offer(page.items, page.more ? 0 : newest);
        if (!page.more && feed.join(stream)) return;
      }
    } catch (err) {
      stream.fail(err);
    }
  }

  private *streams(): Iterable<NoticeStream> {
    for (const f of this.feeds.values()) yield* f.streams;
  }
}
