import type { RetentionGap, FollowItem } from '../follow/follow-events.js';
import { EVENT_LIST, queryString } from '../http/query.js';
import type { Transport } from '../http/transport.js';
import { startingPosition } from '../follow/starting-position.js';
import { graphPath } from '../resources/paths.js';
import type { EventListExpand, ExpandedEvent } from '../types/expand.js';
import type { List } from '../types/resources.js';
import { type ReconnectOptions, SseReconnection } from './sse-reconnection.js';

export interface StreamOptions<
  E extends EventListExpand = EventListExpand,
> extends ReconnectOptions {
  /**
   * Where to start: an event id yields the events after it; `null` yields every retained event
   * from the oldest; omitted yields only events newer than the graph's newest at the start.
   */
  after?: string | null;
  /** Expansions of each event (`data.node`…), as for `events.list`. */
  expand?: readonly E[];
}

interface GapMessage {
  first_event_id: string;
  last_event_id: string | null;
}

/**
 * `GET …/events/stream` (Server-Sent Events), reconnected with `Last-Event-ID` after a network
 * failure, a silent connection, a server that ends the stream or an `api_error`, waiting the
 * server's `retry` and doubling it while reconnecting fails. A trimmed position yields one
 * RetentionGap; any other `event: error` throws its typed error.
 */
export async function* streamEvents<E extends EventListExpand>(
  transport: Transport,
  graphId: string,
  options: StreamOptions<E>,
): AsyncGenerator<FollowItem<E>, void, undefined> {
  const { signal } = options;
  const path = `${graphPath(graphId)}/events/stream${queryString({ expand: options.expand }, EVENT_LIST)}`;
  const link = new SseReconnection(transport, options);
  try {
    let position = await startingPosition(transport, graphId, options.after, signal);
    if (position === null) {
      const first = await oldestEvent(transport, graphId, options.expand, signal, () =>
        link.rest(),
      );
      yield first;
      position = first.id;
    }
    /** The position a gap was yielded for: a reconnection before the next event repeats it. */
    let gapAfter: string | null = null;
    for await (const message of link.messages(path, () => position)) {
      if (message.event === 'message') {
        const event = JSON.parse(message.data) as ExpandedEvent<E>;
        yield event;
        position = event.id;
        gapAfter = null;
      } else if (message.event === 'gap' && gapAfter !== position) {
        const gap = JSON.parse(message.data) as GapMessage;
        gapAfter = position;
        yield {
          object: 'retention_gap',
          after: position,
          first_event_id: gap.first_event_id,
          last_event_id: gap.last_event_id ?? null,
        } satisfies RetentionGap;
      }
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  }
}

/** The oldest retained event, waiting (with `rest`) while the graph has none. */
async function oldestEvent<E extends EventListExpand>(
  transport: Transport,
  graphId: string,
  expand: readonly E[] | undefined,
  signal: AbortSignal | undefined,
  rest: () => Promise<void>,
): Promise<ExpandedEvent<E>> {
  const path = `${graphPath(graphId)}/events${queryString({ order: 'asc', limit: 1, expand }, EVENT_LIST)}`;
  for (;;) {
    const [first] = (await transport.get<List<ExpandedEvent<E>>>(path, { signal })).body!.data;
    if (first) return first;
    await rest();
  }
}
