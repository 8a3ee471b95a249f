import type { NodeState } from '@graph-history/domain';
import { sql } from 'kysely';
import type { Db } from '../connection';
import { pgArg, PreparedStatement } from '../prepared-statement';
import type { EventJsonOrRow, EventJsonWithNode, EventPageQuery } from './event-read.repository';
import { eventsPage, pageWithNodesQuery } from './event-page-queries';
import { nextCreatedOf } from './next-created';
import { rowFields, rowText } from './page-text';

type Direction = EventPageQuery['direction'];

const TEXT_ARGS = {
  graphId: pgArg<number>('bigint'),
  fromSeq: pgArg<number>('bigint'),
  toSeq: pgArg<number>('bigint'),
  limit: pgArg<number>('int'),
};

const fields = (table: string, columns: string[]) => columns.map((c) => sql.ref(`${table}.${c}`));

/** A page of events as their stored JSON, each row ONE text (rowText): seq, created, JSON. */
const eventsText = (direction: Direction) =>
  new PreparedStatement(`gh_events_text_${direction}`, TEXT_ARGS, (db, arg) =>
    db
      .selectFrom(eventsPage(db, { ...arg, objects: sql.lit(false) }, direction).as('e'))
      .select(rowText(fields('e', ['seq', 'created', 'public_json'])).as('r'))
      .orderBy('e.seq', direction),
  );

/**
 * pageWithNodesQuery's page, each row ONE text (rowText): seq, created, the `created` of the
 * event after the range, the node's `state` and `last_event` (empty without a node), the event's
 * and the node's stored JSON.
 */
const eventsWithNodesText = (direction: Direction) =>
  new PreparedStatement(`gh_events_text_with_nodes_${direction}`, TEXT_ARGS, (db, arg) =>
    db
      .selectFrom(pageWithNodesQuery(db, { ...arg, objects: sql.lit(false) }, direction).as('p'))
      .select(
        rowText(
          fields('p', [
            'seq',
            'created',
            'after_created',
            'node_state',
            'node_last_event',
            'public_json',
            'node_json',
          ]),
        ).as('r'),
      )
      .orderBy('p.seq', direction),
  );

const statements = {
  events: { asc: eventsText('asc'), desc: eventsText('desc') },
  withNodes: { asc: eventsWithNodesText('asc'), desc: eventsWithNodesText('desc') },
};

/**
 * The page's events as their stored JSON, in scan order; null when one of them has none (rows
 * written before it existed: the rows statement reads the page then).
 */
export async function eventsJsonPage(db: Db, q: EventPageQuery): Promise<EventJsonOrRow[] | null> {
  const out: EventJsonOrRow[] = [];
  for (const { r } of await statements.events[q.direction].rows(db, q)) {
    const [seq, , json] = rowFields(r);
    if (!json) return null;
    out.push({ seq: Number(seq), json, row: null });
  }
  return out;
}

/** The same with each event's node as of it (see EventJsonWithNode). */
export async function eventsWithNodesJsonPage(
  db: Db,
  q: EventPageQuery,
): Promise<EventJsonWithNode[] | null> {
  const rows = (await statements.withNodes[q.direction].rows(db, q)).map((x) => rowFields(x.r));
  const times = rows.map(([seq, created, afterCreated]) => ({
    seq: Number(seq),
    created: Number(created),
    after_created: afterCreated ? Number(afterCreated) : null,
  }));
  const nextCreated = nextCreatedOf(times, q.toSeq);
  const out: EventJsonWithNode[] = [];
  for (const [i, [, , , state, lastEvent, json, nodeJson]] of rows.entries()) {
    const hasNode = state !== '' && lastEvent !== '';
    if (!json || (hasNode && !nodeJson)) return null;
    out.push({
      seq: times[i]!.seq,
      json,
      row: null,
      node: hasNode
        ? { state: state as NodeState, lastEvent: Number(lastEvent), json: nodeJson!, rec: null }
        : null,
      nextCreated: nextCreated(times[i]!),
    });
  }
  return out;
}
