import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnModuleInit,
} from '@nestjs/common';
import { Config } from '@graph-history/config';
import { ApiError, AppliedEvents, CONFIG } from '@graph-history/http';
import { AppliedEventsSubscription } from './applied-events-subscription';
import type { EventStream } from './event-stream';
import { GraphFeed } from './graph-feed';
import { MAX_READ_FAILURES, RETRY_MS } from './stream-feed';
import { StreamKeyCheck } from './stream-key-check';
import { StreamPageReader } from './stream-page-reader';
import { startStreamTimers, type StreamTimerSettings } from './stream-timers';

type StreamSettings = StreamTimerSettings &
  Pick<Config, 'REDIS_URL' | 'REDIS_CLUSTER_NODES' | 'QUEUE_PREFIX'>;

/**
 * This process's event streams and their Redis subscription (docs/architecture.md, "Event
 * streams"): a message `<graph id>:<seq>` from the ingestor is handed to the graph's feeds, which
 * read the new events once each and write them to their live streams. While the subscription is
 * down (and for two poll periods after it is back, to cover what was published meanwhile), every
 * feed reads Postgres for new events every STREAM_POLL_MS instead.
 */
@Injectable()
export class EventFanOut implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(EventFanOut.name);
  private readonly feeds = new Map<string, GraphFeed>();
  private readonly feedsByGraph = new Map<number, Set<GraphFeed>>();
  private readonly subscription: AppliedEventsSubscription;
  private listening = false;
  private pollUntil = 0;
  private stopTimers = (): void => {};
  private readonly listeners: ((m: AppliedEvents) => void)[] = [];

  constructor(
    @Inject(CONFIG) private readonly config: StreamSettings,
    private readonly reader: StreamPageReader,
    private readonly keys: StreamKeyCheck,
  ) {
    this.subscription = new AppliedEventsSubscription(
      config,
      config.QUEUE_PREFIX,
      Math.max(config.STREAM_POLL_MS, 500),
      {
        message: (m) => this.onMessage(m),
        listening: (listening) => {
          this.listening = listening;
          if (!listening) return;
          // cover what was published while the subscription was away
          this.pollUntil = Date.now() + 2 * this.config.STREAM_POLL_MS;
          this.pollAll();
        },
        unreachable: (err) =>
          this.logger.warn({ err }, 'event streams poll Postgres until Redis answers'),
      },
    );
  }

  onModuleInit(): void {
    this.subscription.start();
    this.stopTimers = startStreamTimers(
      this.config,
      this.keys,
      () => this.streams(),
      () => {
        if (this.polling) this.pollAll();
      },
    );
  }

  /** Before the HTTP server closes, which waits for open connections. */
  beforeApplicationShutdown(): void {
    this.stopTimers();
    for (const s of this.streams()) s.end();
    this.subscription.stop();
  }

  /** Hears every message of the subscription (the notice streams take theirs this way). */
  listen(fn: (m: AppliedEvents) => void): void {
    this.listeners.push(fn);
  }

  /** Whether streams must read Postgres for news: the subscription is away, or just back. */
  get polling(): boolean {
    return !this.listening || Date.now() < this.pollUntil;
  }

  /** Registers the stream (before it reads anything, so that nothing announced is missed). */
  add(stream: EventStream): GraphFeed {
    const key = `${stream.graphId}|${JSON.stringify(stream.expand.paths)}|${stream.expand.descendantsMaxDepth}`;
    let feed = this.feeds.get(key);
    if (!feed) {
      feed = new GraphFeed(stream.graphId, this.reader, (s) => void this.catchUp(feed!, s));
      this.feeds.set(key, feed);
      const byGraph = this.feedsByGraph.get(stream.graphId) ?? new Set();
      byGraph.add(feed);
      this.feedsByGraph.set(stream.graphId, byGraph);
    }
    const joined = feed;
    stream.onEnd(() => this.drop(key, joined, stream));
    joined.streams.add(stream);
    return joined;
  }

  /**
   * Reads what the stream misses (from Postgres, through the events list's query) until it has
   * reached its feed, then makes it live. A trimmed position writes a gap and goes on from the
   * oldest retained event; a failing database is retried every second for half a minute; any
   * other error ends the stream with an `error` message.
   */
  async catchUp(feed: GraphFeed, stream: EventStream): Promise<void> {
    let failures = 0;
    try {
      for (;;) {
        if (stream.closed) return;
        const through = feed.through > stream.seq ? feed.through : null;
        let page;
        try {
          page = await this.reader.read(stream, stream.seq, through);
        } catch (err) {
          if (err instanceof ApiError && err.code === 'outside_retention_window') {
            stream.gap(err);
            continue;
          }
          // the database (or a replica) failed: try again shortly, for a while
          if (stream.closed) return;
          if (!(err instanceof ApiError) && ++failures < MAX_READ_FAILURES) {
            await new Promise((r) => setTimeout(r, RETRY_MS).unref());
            continue;
          }
          throw err;
        }
        failures = 0;
        stream.send(page.items);
        if (!page.hasMore && feed.join(stream)) return;
      }
    } catch (err) {
      stream.fail(err);
    }
  }

  private onMessage(m: AppliedEvents): void {
    for (const fn of this.listeners) fn(m);
    const feeds = this.feedsByGraph.get(m.graphId);
    if (feeds) for (const f of feeds) f.announce(m.seq);
  }

  private pollAll(): void {
    for (const f of this.feeds.values()) f.announce(null);
  }

  private *streams(): Iterable<EventStream> {
    for (const f of this.feeds.values()) yield* f.streams;
  }

  private drop(key: string, feed: GraphFeed, stream: EventStream): void {
    feed.streams.delete(stream);
    if (feed.streams.size > 0) return;
    this.feeds.delete(key);
    const graphId = stream.graphId;
    const byGraph = this.feedsByGraph.get(graphId);
    byGraph?.delete(feed);
    if (byGraph?.size === 0) this.feedsByGraph.delete(graphId);
  }
}
