import {
  fromStoredNodeRecord,
  type NodeRecord,
  type StoredEvent,
  type StoredGraphCounts,
} from '@graph-history/domain';
import { sql, type Expression, type Kysely } from 'kysely';
import { Db } from '../connection';
import { pgArg, PreparedStatement } from '../prepared-statement';
import type { Database } from '../schema';
import { versionAt } from './node-version-queries';
import { unnestRows } from './unnest-rows';

/** `created` and `counts` of one event. */
export interface EventFacts {
  seq: number;
  created: number;
  counts: StoredGraphCounts;
}

/** An event as the events list shows it. */
export type EventRow = Omit<StoredEvent, 'key' | 'counts'>;

/** An event of a page with its node as it stood just after the event. */
export interface EventWithNode extends EventRow {
  /** The node as of this event; null when it did not exist. */
  node: NodeRecord | null;
  /**
   * `created` of the event after this one when it is on the page or just past the range's top
   * (sequences have no gaps, so only the row at the far end of an `asc` page's scan has none).
   */
  nextCreated: number | null;
}

export interface EventPageQuery {
  graphId: number;
  /** Inclusive sequence bounds of the page's range. */
  fromSeq: number;
  toSeq: number;
  /** `asc` walks up from `fromSeq`, `desc` down from `toSeq`. */
  direction: 'asc' | 'desc';
  limit: number;
}

const eventFacts = new PreparedStatement(
  'gh_event_facts',
  { graphIds: pgArg<number[]>('bigint[]'), seqs: pgArg<number[]>('bigint[]') },
  (db, arg) =>
    db
      .selectFrom(
        unnestRows<{ graph_id: number; seq: number }>({ graph_id: arg.graphIds, seq: arg.seqs }),
      )
      .innerJoin('events as e', (join) =>
        join.onRef('e.graph_id', '=', 'p.graph_id').onRef('e.seq', '=', 'p.seq'),
      )
      .select(['p.i', 'e.seq', 'e.created', 'e.counts']),
);

/** The columns of an events list row. */
const LISTED = ['seq', 'type', 'created', 'node_no', 'source', 'payload', 'changes'] as const;

type PageArgs = { [K in 'graphId' | 'fromSeq' | 'toSeq' | 'limit']: Expression<number> };

/** The events of one page, in scan order. */
const eventsPage = (db: Kysely<Database>, q: PageArgs, direction: 'asc' | 'desc') =>
  db
    .selectFrom('events')
    .select(LISTED)
    .where('graph_id', '=', q.graphId)
    .where('seq', '>=', q.fromSeq)
    .where('seq', '<=', q.toSeq)
    .orderBy('seq', direction)
    .limit(q.limit);

const PAGE_ARGS = {
  graphId: pgArg<number>('bigint'),
  fromSeq: pgArg<number>('bigint'),
  toSeq: pgArg<number>('bigint'),
  limit: pgArg<number>('int'),
};

/**
 * A page of events with each event's node as of it, in one statement: the version the event
 * wrote is a primary-key equality probe (`valid_from = seq`); only an event that wrote none falls
 * back to the newest earlier version. No window or sort: rows keep the events index's order.
 */
const pageWithNodes = (direction: 'asc' | 'desc') =>
  new PreparedStatement(`gh_events_with_nodes_${direction}`, PAGE_ARGS, (db, arg) =>
    db
      .selectFrom(eventsPage(db, arg, direction).as('e'))
      .leftJoin('node_versions as w', (join) =>
        join
          .on('w.graph_id', '=', arg.graphId)
          .onRef('w.node_no', '=', 'e.node_no')
          .onRef('w.valid_from', '=', 'e.seq'),
      )
      .select((eb) => [
        ...LISTED.map((c) => `e.${c}` as const),
        eb.fn
          .coalesce(
            'w.rec',
            versionAt(arg.graphId, eb.ref('e.node_no'), eb.ref('e.seq'))
              .select('v.rec')
              .$asScalar(),
          )
          .as('rec'),
        eb
          .selectFrom('events as n')
          .select('n.created')
          .where('n.graph_id', '=', arg.graphId)
          .where('n.seq', '=', eb(arg.toSeq, '+', sql.lit(1)))
          .$asScalar()
          .as('after_created'),
      ])
      .orderBy('e.seq', direction),
  );
const pagesWithNodes = { asc: pageWithNodes('asc'), desc: pageWithNodes('desc') };

const toEventRow = (r: {
  seq: number;
  type: string;
  created: number;
  node_no: number;
  source: EventRow['source'];
  payload: EventRow['payload'];
  changes: EventRow['changes'];
}): EventRow => ({
  seq: r.seq,
  type: r.type,
  created: r.created,
  nodeNo: r.node_no,
  source: r.source,
  payload: r.payload,
  changes: r.changes,
});

export class EventReadRepository {
  constructor(private readonly db: Db) {}

  /** The newest event at or before `time` within [fromSeq, toSeq], or null. */
  async seqAtOrBefore(
    graphId: number,
    time: number,
    fromSeq: number,
    toSeq: number,
  ): Promise<number | null> {
    const row = await this.db
      .selectFrom('events')
      .select('seq')
      .where('graph_id', '=', graphId)
      .where('created', '<=', time)
      .where('seq', '>=', fromSeq)
      .where('seq', '<=', toSeq)
      .orderBy('created', 'desc')
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? row.seq : null;
  }

  async createdAt(graphId: number, seq: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('events')
      .select('created')
      .where('graph_id', '=', graphId)
      .where('seq', '=', seq)
      .executeTakeFirst();
    return row ? row.created : null;
  }

  /** `created` and `counts` of events of any graphs, in input order; null where none is stored. */
  async facts(items: { graphId: number; seq: number }[]): Promise<(EventFacts | null)[]> {
    if (items.length === 0) return [];
    const rows = await eventFacts.rows(this.db, {
      graphIds: items.map((x) => x.graphId),
      seqs: items.map((x) => x.seq),
    });
    const out: (EventFacts | null)[] = items.map(() => null);
    for (const { i, ...facts } of rows) out[Number(i) - 1] = facts;
    return out;
  }

  /** One page of events in the given direction, within the inclusive range. */
  async page(q: EventPageQuery): Promise<EventRow[]> {
    const rows = await eventsPage(
      this.db,
      {
        graphId: sql.val(q.graphId),
        fromSeq: sql.val(q.fromSeq),
        toSeq: sql.val(q.toSeq),
        limit: sql.val(q.limit),
      },
      q.direction,
    ).execute();
    return rows.map(toEventRow);
  }

  /** `page`, each event with its node as it stood just after it and the next event's `created`. */
  async pageWithNodes(q: EventPageQuery): Promise<EventWithNode[]> {
    const rows = await pagesWithNodes[q.direction].rows(this.db, q);
    const createdAt = new Map(rows.map((r) => [r.seq, r.created]));
    return rows.map((r) => ({
      ...toEventRow(r),
      node: r.rec === null ? null : fromStoredNodeRecord(r.rec),
      nextCreated: createdAt.get(r.seq + 1) ?? (r.seq === q.toSeq ? r.after_created : null),
    }));
  }
}
