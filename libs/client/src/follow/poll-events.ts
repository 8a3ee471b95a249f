import { InvalidRequestError, isTransient } from '../errors.js';
import { EVENT_LIST, queryString } from '../http/query.js';
import { sleep } from '../http/sleep.js';
import type { Transport } from '../http/transport.js';
import { startingPosition } from './starting-position.js';
import type { EventListExpand, ExpandedEvent } from '../types/expand.js';
import type { List } from '../types/resources.js';
import { graphPath } from '../resources/paths.js';
import type { FollowItem, FollowOptions } from './follow-events.js';

/**
 * How `events.follow` reads where the event stream is not available. Polls
 * `GET …/events?order=asc&starting_after=<position>`: pages follow each other at once while there
 * are more, then polls back off (doubling from `minIntervalMs` to `maxIntervalMs`), each
 * with `If-None-Match`, so an unchanged answer is an empty 304.
 */
export async function* pollEvents<E extends EventListExpand>(
  transport: Transport,
  graphId: string,
  options: FollowOptions<E>,
): AsyncGenerator<FollowItem<E>, void, undefined> {
  const { signal } = options;
  const minInterval = options.minIntervalMs ?? 250;
  const maxInterval = options.maxIntervalMs ?? 5_000;
  const eventsPath = (after: string | null) =>
    `${graphPath(graphId)}/events${queryString(
      {
        order: 'asc',
        limit: options.pageSize ?? 100,
        startingAfter: after ?? undefined,
        expand: options.expand,
      },
      EVENT_LIST,
    )}`;
  let idle = minInterval;
  const rest = async () => {
    await sleep(idle, signal);
    idle = Math.min(idle * 2, maxInterval);
  };
  try {
    let position = await startingPosition(transport, graphId, options.after, signal);
    let etag: string | undefined;
    for (;;) {
      let page: List<ExpandedEvent<E>>;
      try {
        const answer = await transport.get<List<ExpandedEvent<E>>>(eventsPath(position), {
          signal,
          ifNoneMatch: etag,
        });
        if (answer.status === 304) {
          await rest();
          continue;
        }
        page = answer.body!;
        etag = answer.etag ?? undefined;
      } catch (err) {
        if (
          err instanceof InvalidRequestError &&
          err.code === 'outside_retention_window' &&
          position !== null
        ) {
          page = (await transport.get<List<ExpandedEvent<E>>>(eventsPath(null), { signal })).body!;
          const first = page.data[0];
          if (first === undefined) throw err;
          yield {
            object: 'retention_gap',
            after: position,
            first_event_id: first.id,
            last_event_id: err.last_event_id ?? null,
          };
          etag = undefined;
        } else if (isTransient(err) && !signal?.aborted) {
          await rest();
          continue;
        } else throw err;
      }
      for (const event of page.data) {
        yield event;
        position = event.id;
      }
      if (page.data.length > 0) {
        etag = undefined;
        idle = minInterval;
      }
      if (!page.has_more) await rest();
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  }
}
