import type { NodeState } from '@graph-history/domain';
import { sql } from 'kysely';
import type { Db } from '../connection';
import { pgArg, PreparedStatement } from '../prepared-statement';
import type {
  BoundedEventPageQuery,
  EventJson,
  EventJsonWithNode,
  EventPageQuery,
} from './event-read.repository';
import { eventsPage, pageWithNodesQuery } from './event-page-queries';
import { nextCreatedOf } from './next-created';
import { RowText } from './page-text';
import { byteColumns, ifFits, fitsIn, readIn, type SizedPage } from './page-bytes';

type Direction = EventPageQuery['direction'];

const TEXT_ARGS = {
  graphId: pgArg<number>('bigint'),
  fromSeq: pgArg<number>('bigint'),
  toSeq: pgArg<number>('bigint'),
  limit: pgArg<number>('int'),
  maxBytes: pgArg<number>('bigint'),
};

/** An event row of a page: seq, created, JSON, and 1 where it fits. */
const eventRow = new RowText(['seq', 'created', 'json', 'fits']);

/** An event row with its node: also the next event's `created` and the node's fields. */
const eventWithNodeRow = new RowText([
  'seq',
  'created',
  'after_created',
  'node_state',
  'node_last_event',
  'json',
  'node_json',
  'fits',
]);

/**
 * A page of events as their stored JSON, bounded to `maxBytes` of it (see page-bytes), each row
 * ONE text (eventRow): seq, created, JSON, and 1 where it fits (0 on the row that tells the page
 * was cut, without its JSON).
 */
const eventsText = (direction: Direction) =>
  new PreparedStatement(`gh_events_text_${direction}`, TEXT_ARGS, (db, arg) =>
    db
      .selectFrom(
        db
          .selectFrom(eventsPage(db, arg, direction).as('e'))
          .select(['e.seq', 'e.created', 'e.public_json'])
          .select(byteColumns(sql`octet_length(e.public_json)`, sql.ref('e.seq'), direction))
          .as('s'),
      )
      .where(readIn(arg.maxBytes))
      .select(
        eventRow
          .select({
            seq: sql.ref('s.seq'),
            created: sql.ref('s.created'),
            json: ifFits(arg.maxBytes, 'public_json'),
            fits: sql`${fitsIn(arg.maxBytes)}::int`,
          })
          .as('r'),
      )
      .orderBy('s.seq', direction),
  );

/**
 * pageWithNodesQuery's page, bounded to `maxBytes` of the events' and nodes' JSON, each row ONE
 * text (eventWithNodeRow): seq, created, the `created` of the event after the range, the node's `state`
 * and `last_event` (empty without a node), the event's and the node's stored JSON, and 1 where
 * it fits (as eventsText).
 */
const eventsWithNodesText = (direction: Direction) =>
  new PreparedStatement(`gh_events_text_with_nodes_${direction}`, TEXT_ARGS, (db, arg) =>
    db
      .selectFrom(
        db
          .selectFrom(pageWithNodesQuery(db, arg, direction).as('p'))
          .selectAll('p')
          .select(
            byteColumns(
              sql`octet_length(p.public_json) + coalesce(octet_length(p.node_json), 0)`,
              sql.ref('p.seq'),
              direction,
            ),
          )
          .as('s'),
      )
      .where(readIn(arg.maxBytes))
      .select(
        eventWithNodeRow
          .select({
            seq: sql.ref('s.seq'),
            created: sql.ref('s.created'),
            after_created: sql.ref('s.after_created'),
            node_state: sql.ref('s.node_state'),
            node_last_event: sql.ref('s.node_last_event'),
            json: ifFits(arg.maxBytes, 'public_json'),
            node_json: ifFits(arg.maxBytes, 'node_json'),
            fits: sql`${fitsIn(arg.maxBytes)}::int`,
          })
          .as('r'),
      )
      .orderBy('s.seq', direction),
  );

const statements = {
  events: { asc: eventsText('asc'), desc: eventsText('desc') },
  withNodes: { asc: eventsWithNodesText('asc'), desc: eventsWithNodesText('desc') },
};

/** The page's events as their stored JSON, in scan order. */
export async function eventsJsonPage(
  db: Db,
  q: BoundedEventPageQuery,
): Promise<SizedPage<EventJson>> {
  const out: EventJson[] = [];
  for (const { r } of await statements.events[q.direction].rows(db, q)) {
    const { seq, json, fits } = eventRow.read(r);
    if (fits === '0') return { rows: out, cut: true };
    out.push({ seq: Number(seq), json });
  }
  return { rows: out, cut: false };
}

/** The same with each event's node as of it (see EventJsonWithNode). */
export async function eventsWithNodesJsonPage(
  db: Db,
  q: BoundedEventPageQuery,
): Promise<SizedPage<EventJsonWithNode>> {
  const rows = (await statements.withNodes[q.direction].rows(db, q)).map((x) =>
    eventWithNodeRow.read(x.r),
  );
  const times = rows.map((r) => ({
    seq: Number(r.seq),
    created: Number(r.created),
    after_created: r.after_created ? Number(r.after_created) : null,
  }));
  const nextCreated = nextCreatedOf(times, q.toSeq);
  const out: EventJsonWithNode[] = [];
  for (const [i, r] of rows.entries()) {
    if (r.fits === '0') return { rows: out, cut: true };
    out.push({
      seq: times[i]!.seq,
      json: r.json,
      // no version: empty fields (see RowText)
      node:
        r.node_state === ''
          ? null
          : {
              json: r.node_json,
              state: r.node_state as NodeState,
              lastEvent: Number(r.node_last_event),
            },
      nextCreated: nextCreated(times[i]!),
    });
  }
  return { rows: out, cut: false };
}
