import { sql, type Expression, type Kysely } from 'kysely';
import { pgArg } from '../prepared-statement';
import type { Database } from '../schema';
import { versionAt } from './node-version-queries';

export type PageArgs = { [K in 'graphId' | 'fromSeq' | 'toSeq' | 'limit']: Expression<number> };

/** What a page reads of each event. */
const LISTED = ['seq', 'type', 'created', 'node_no', 'public_json'] as const;

/** The events of one page, in scan order. */
export const eventsPage = (db: Kysely<Database>, q: PageArgs, direction: 'asc' | 'desc') =>
  db
    .selectFrom('events')
    .select(LISTED)
    .where('graph_id', '=', q.graphId)
    .where('seq', '>=', q.fromSeq)
    .where('seq', '<=', q.toSeq)
    .orderBy('seq', direction)
    .limit(q.limit);

export const PAGE_ARGS = {
  graphId: pgArg<number>('bigint'),
  fromSeq: pgArg<number>('bigint'),
  toSeq: pgArg<number>('bigint'),
  limit: pgArg<number>('int'),
};

/** What a page reads of the version that is each event's node. */
const VERSION_COLUMNS = [
  'v.public_json',
  'v.sort_key',
  'v.created_seq',
  'v.state',
  'v.last_event',
] as const;

/**
 * A page of events with each event's node as of it, in one statement: the version the event
 * wrote is a primary-key equality probe (`valid_from = seq`); only an event that wrote none falls
 * back (a lateral probe that is skipped otherwise) to the newest earlier version. No window or
 * sort: rows keep the events index's order.
 */
export const pageWithNodesQuery = (
  db: Kysely<Database>,
  arg: PageArgs,
  direction: 'asc' | 'desc',
) =>
  db
    .selectFrom(eventsPage(db, arg, direction).as('e'))
    // lateral with a limit: always a primary-key probe per event (a plain join may be
    // planned as a hash join over every version of the graph, and a sort)
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('node_versions as v')
          .select(['v.node_no', ...VERSION_COLUMNS])
          .where('v.graph_id', '=', arg.graphId)
          .where('v.node_no', '=', eb.ref('e.node_no'))
          .where('v.valid_from', '=', eb.ref('e.seq'))
          .limit(sql.lit(1))
          .as('w'),
      (join) => join.onTrue(),
    )
    .leftJoinLateral(
      (eb) =>
        versionAt(arg.graphId, eb.ref('e.node_no'), eb.ref('e.seq'))
          .where(sql<boolean>`w.node_no is null`)
          .select(VERSION_COLUMNS)
          .as('f'),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      ...LISTED.map((c) => `e.${c}` as const),
      eb.fn.coalesce('w.public_json', 'f.public_json').as('node_json'),
      eb.fn.coalesce('w.sort_key', 'f.sort_key').as('sort_key'),
      eb.fn.coalesce('w.created_seq', 'f.created_seq').as('created_seq'),
      eb.fn.coalesce('w.state', 'f.state').as('node_state'),
      eb.fn.coalesce('w.last_event', 'f.last_event').as('node_last_event'),
      eb
        .selectFrom('events as n')
        .select('n.created')
        .where('n.graph_id', '=', arg.graphId)
        .where('n.seq', '=', eb(arg.toSeq, '+', sql.lit(1)))
        .$asScalar()
        .as('after_created'),
    ])
    .orderBy('e.seq', direction);
