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
import { rowFields, rowText } from './page-text';
import { byteColumns, ifFits, fitsIn, readIn, type SizedPage } from './page-bytes';

type Direction = EventPageQuery['direction'];

const TEXT_ARGS = {
  graphId: pgArg<number>('bigint'),
  fromSeq: pgArg<number>('bigint'),
  toSeq: pgArg<number>('bigint'),
  limit: pgArg<number>('int'),
  maxBytes: pgArg<number>('bigint'),
};

const fields = (table: string, columns: string[]) => columns.map((c) => sql.ref(`${table}.${c}`));

/**
 * A page of events as their stored JSON, bounded to `maxBytes` of it (see page-bytes), each row
 * ONE text (rowText): seq, created, JSON, and 1 where it fits (0 on the row that tells the page
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
        rowText([
          sql.ref('s.seq'),
          sql.ref('s.created'),
          ifFits(arg.maxBytes, 'public_json'),
          sql`${fitsIn(arg.maxBytes)}::int`,
        ]).as('r'),
      )
      .orderBy('s.seq', direction),
  );

/**
 * pageWithNodesQuery's page, bounded to `maxBytes` of the events' and nodes' JSON, each row ONE
 * text (rowText): seq, created, the `created` of the event after the range, the node's `state`
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
        rowText([
          ...fields('s', ['seq', 'created', 'after_created', 'node_state', 'node_last_event']),
          ifFits(arg.maxBytes, 'public_json'),
          ifFits(arg.maxBytes, 'node_json'),
          sql`${fitsIn(arg.maxBytes)}::int`,
        ]).as('r'),
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
    const [seq, , json, fits] = rowFields(r);
    if (fits === '0') return { rows: out, cut: true };
    out.push({ seq: Number(seq), json: json! });
  }
  return { rows: out, cut: false };
}

/** The same with each event's node as of it (see EventJsonWithNode). */
export async function eventsWithNodesJsonPage(
  db: Db,
  q: BoundedEventPageQuery,
): Promise<SizedPage<EventJsonWithNode>> {
  const rows = (await statements.withNodes[q.direction].rows(db, q)).map((x) => rowFields(x.r));
  const times = rows.map(([seq, created, afterCreated]) => ({
    seq: Number(seq),
    created: Number(created),
    after_created: afterCreated ? Number(afterCreated) : null,
  }));
  const nextCreated = nextCreatedOf(times, q.toSeq);
  const out: EventJsonWithNode[] = [];
  for (const [i, [, , , state, lastEvent, json, nodeJson, fits]] of rows.entries()) {
    if (fits === '0') return { rows: out, cut: true };
    out.push({
      seq: times[i]!.seq,
      json: json!,
      // no version: empty fields (see rowText)
      node:
        state === ''
          ? null
          : { json: nodeJson!, state: state as NodeState, lastEvent: Number(lastEvent) },
      nextCreated: nextCreated(times[i]!),
    });
  }
  return { rows: out, cut: false };
}
