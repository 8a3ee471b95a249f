import { Inject, Injectable } from '@nestjs/common';
import type { Config } from '@graph-history/config';
import { eventId, graphPublicId } from '@graph-history/domain';
import { CONFIG } from '@graph-history/http';
import { EventPage, EventListService } from '../events/event-list.service';
import { graphPath } from '../expand/expand-urls';
import { ReplicaReads } from '../replicas/replica-reads';
import type { EventStream } from './event-stream';

/** Events a stream's catch-up or fan-out reads at once. */
export const STREAM_PAGE_SIZE = 100;

/**
 * The streams' one read: a page of the events list (ascending, after a position, up to an event
 * or now, at most PAGE_MAX_BYTES of stored JSON), on the database the same list request would read from (a replica once it has applied
 * `through`, as for `as_of` that event).
 */
@Injectable()
export class StreamPageReader {
  constructor(
    private readonly events: EventListService,
    @Inject(ReplicaReads) private readonly replicas: ReplicaReads | null,
    @Inject(CONFIG) private readonly config: Pick<Config, 'PAGE_MAX_BYTES'>,
  ) {}

  read(stream: EventStream, after: number, through: number | null): Promise<EventPage> {
    const startingAfter = after === 0 ? undefined : eventId(stream.graphId, after);
    const asOf = through === null ? undefined : eventId(stream.graphId, through);
    const read = () =>
      this.events.page(
        stream.principal,
        graphPublicId(stream.graphKey),
        {
          asOf:
            asOf === undefined
              ? { kind: 'now' }
              : { kind: 'event', graphId: stream.graphId, seq: through!, id: asOf },
          order: 'asc',
          page: { limit: STREAM_PAGE_SIZE, startingAfter },
          expand: stream.expand,
        },
        this.config.PAGE_MAX_BYTES,
      );
    if (!this.replicas) return read();
    const params = new URLSearchParams();
    if (asOf) params.set('as_of', asOf);
    if (startingAfter) params.set('starting_after', startingAfter);
    return this.replicas.runAs(`${graphPath(stream.graphKey)}/events?${params.toString()}`, read);
  }
}
