import { EVENT_LIST, queryString } from '../http/query.js';
import type { RequestOptions, Transport } from '../http/transport.js';
import { followEvents, type FollowItem, type FollowOptions } from '../follow/follow-events.js';
import { pollEvents } from '../follow/poll-events.js';
import { streamEvents, type StreamOptions } from '../stream/stream-events.js';
import { PageList } from '../pagination/page-list.js';
import type { EventListExpand, ExpandedEvent } from '../types/expand.js';
import type { EventListParams } from '../types/params.js';
import { graphPath, pageFetcher } from './paths.js';

export class Events {
  constructor(private readonly transport: Transport) {}

  /** The graph's retained events (up to `asOf`), newest first unless `order: 'asc'`. */
  list<const E extends EventListExpand = never>(
    graphId: string,
    params: EventListParams<E> = {},
    options: RequestOptions = {},
  ): PageList<ExpandedEvent<E>> {
    return new PageList<ExpandedEvent<E>>({
      path: `${graphPath(graphId)}/events${queryString(params, EVENT_LIST)}`,
      fetchPage: pageFetcher(this.transport),
      backward: params.endingBefore !== undefined,
      signal: options.signal,
    });
  }

  /**
   * Every new event of the graph, once each and in order, forever (until `signal` aborts or the
   * loop breaks). See `FollowOptions` for where it starts and how it polls, and `RetentionGap`
   * for what it yields when its position was trimmed.
   */
  follow<const E extends EventListExpand = never>(
    graphId: string,
    options: FollowOptions<E> = {},
  ): AsyncGenerator<FollowItem<E>, void, undefined> {
    return followEvents(this.transport, graphId, options);
  }

  /**
   * The graph's event stream (Server-Sent Events): each new event once and in order, reconnecting
   * with the last event id after network failures and server ends, until `signal` aborts or the
   * loop breaks. Yields a RetentionGap when the position was trimmed; throws the typed error of an
   * `event: error` (e.g. AuthenticationError once the key is revoked).
   */
  stream<const E extends EventListExpand = never>(
    graphId: string,
    options: StreamOptions<E> = {},
  ): AsyncGenerator<FollowItem<E>, void, undefined> {
    return streamEvents(this.transport, graphId, options);
  }

  /**
   * `follow` without the stream: polls the events list (conditional requests, backing off while
   * the graph is idle). For a client that cannot hold a stream open, or one standing in while the
   * stream keeps failing (the viewer does).
   */
  poll<const E extends EventListExpand = never>(
    graphId: string,
    options: FollowOptions<E> = {},
  ): AsyncGenerator<FollowItem<E>, void, undefined> {
    return pollEvents(this.transport, graphId, options);
  }
}
