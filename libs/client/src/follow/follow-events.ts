import { InvalidRequestError } from '../errors.js';
import { StreamingUnsupportedError, type Transport } from '../http/transport.js';
import { startingPosition } from './starting-position.js';
import { streamEvents } from '../stream/stream-events.js';
import type { EventListExpand, ExpandedEvent } from '../types/expand.js';
import { pollEvents } from './poll-events.js';

export interface FollowOptions<E extends EventListExpand = EventListExpand> {
  /**
   * Where to start: an event id yields the events after it; `null` yields every retained event
   * from the oldest; omitted yields only events newer than the graph's newest at the start.
   */
  after?: string | null;
  /** Stops following: the iteration then ends without an error. */
  signal?: AbortSignal;
  /** When polling: events per request while catching up (1 to 1,000). Default 100. */
  pageSize?: number;
  /** Expansions of each event (`data.node`…), as for `events.list`. */
  expand?: readonly E[];
  /** When polling: wait after an empty poll; doubles while the graph stays idle. Default 250 ms. */
  minIntervalMs?: number;
  /** When polling: longest wait between polls of an idle graph. Default 5,000 ms. */
  maxIntervalMs?: number;
}

/**
 * Yielded when the events after the follower's position were trimmed before it read them
 * (410 `outside_retention_window`): the events strictly between `after` and `first_event_id`
 * are lost. Following resumes with `first_event_id`, the oldest retained event.
 */
export interface RetentionGap {
  object: 'retention_gap';
  /** The last event yielded (or the `after` given) before the gap. */
  after: string;
  /** The oldest retained event: the next event yielded. */
  first_event_id: string;
  /** The newest retained event when the gap was found. */
  last_event_id: string | null;
}

export type FollowItem<E extends string = never> = ExpandedEvent<E> | RetentionGap;

/** The server has no event stream (404/405), or this environment cannot read one. */
const streamUnavailable = (err: unknown): boolean =>
  err instanceof StreamingUnsupportedError ||
  (err instanceof InvalidRequestError && (err.status === 404 || err.status === 405));

/**
 * Follows by the event stream (`events.stream`); where the stream answers 404/405 or the fetch
 * cannot stream, polls the events list instead, from the last event yielded.
 */
export async function* followEvents<E extends EventListExpand>(
  transport: Transport,
  graphId: string,
  options: FollowOptions<E>,
): AsyncGenerator<FollowItem<E>, void, undefined> {
  const { signal } = options;
  let position: string | null;
  try {
    position = await startingPosition(transport, graphId, options.after, signal);
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  }
  try {
    const { expand } = options;
    for await (const item of streamEvents(transport, graphId, {
      after: position,
      expand,
      signal,
    })) {
      yield item;
      if (item.object === 'event') position = item.id;
    }
    return;
  } catch (err) {
    if (!streamUnavailable(err)) throw err;
  }
  yield* pollEvents(transport, graphId, { ...options, after: position });
}
