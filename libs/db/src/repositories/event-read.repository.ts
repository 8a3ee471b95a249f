import {
  listedEventFromJson,
  type NodeRecord,
  type StoredEvent,
  type StoredGraphCounts,
} from '@graph-history/domain';
import { sql } from 'kysely';
import { Db } from '../connection';
import { pgArg, PreparedStatement } from '../prepared-statement';
import { recordOf, type NodeJson } from './node-json-row';
import { eventsJsonPage, eventsWithNodesJsonPage } from './event-json-pages';
import { eventsPage, PAGE_ARGS, pageWithNodesQuery } from './event-page-queries';
import { nextCreatedOf } from './next-created';
import { unnestRows } from './unnest-rows';
import {
  byteColumns,
  fitsIn,
  ifFits,
  readIn,
  sizedPage,
  UNBOUNDED_BYTES,
  type SizedPage,
} from './page-bytes';
import { GenerateSql } from '../sql-text/generate-sql';

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
  /**
   * Bytes of stored JSON (events' and their nodes') the page may hold; it ends before the row
   * that would pass them, but always holds its first row. Unbounded when absent.
   */
  maxBytes?: number;
}

export type BoundedEventPageQuery = EventPageQuery & { maxBytes: number };

const bounded = (q: EventPageQuery): BoundedEventPageQuery => ({
  ...q,
  maxBytes: q.maxBytes ?? UNBOUNDED_BYTES,
});

/** A stored event's bytes in SQL: its JSON's. */
const EVENT_BYTES = sql<number>`octet_length(s.public_json)`;
/** The same for the node beside it (of pageWithNodesQuery). */
const NODE_BYTES = sql<number>`coalesce(octet_length(s.node_json), 0)`;

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

const BOUNDED_ARGS = { ...PAGE_ARGS, maxBytes: pgArg<number>('bigint') };

/** pageWithNodesQuery bounded to `maxBytes` (see page-bytes), each row with `fits`. */
const pageWithNodes = (direction: 'asc' | 'desc') =>
  new PreparedStatement(`gh_events_with_nodes_${direction}`, BOUNDED_ARGS, (db, arg) =>
    db
      .selectFrom(
        db
          .selectFrom(pageWithNodesQuery(db, arg, direction).as('s'))
          .selectAll('s')
          .select(byteColumns(sql`${EVENT_BYTES} + ${NODE_BYTES}`, sql.ref('s.seq'), direction))
          .as('s'),
      )
      .where(readIn(arg.maxBytes))
      .select([
        's.seq',
        's.type',
        's.created',
        's.node_no',
        's.after_created',
        's.node_state',
        's.node_last_event',
        's.sort_key',
        's.created_seq',
        ifFits<string>(arg.maxBytes, 'public_json').as('public_json'),
        ifFits<string>(arg.maxBytes, 'node_json').as('node_json'),
        fitsIn(arg.maxBytes).as('fits'),
      ])
      .orderBy('s.seq', direction),
  );
const pagesWithNodes = { asc: pageWithNodes('asc'), desc: pageWithNodes('desc') };

type ListedRow = {
  seq: number;
  type: string;
  created: number;
  node_no: number;
  public_json: string | null;
};

/** The event of a row that fits its page (see page-bytes: only those carry their JSON). */
const toEventRow = (r: ListedRow): EventRow =>
  listedEventFromJson(
    { seq: r.seq, type: r.type, created: r.created, nodeNo: r.node_no },
    r.public_json!,
  );

/** An event of a page as its stored JSON. */
export interface EventJson {
  seq: number;
  json: string;
}

/** An event of a page as JSON, with its node (see EventWithNode). */
export interface EventJsonWithNode extends EventJson {
  node: NodeJson | null;
  nextCreated: number | null;
}

export class EventReadRepository {
  constructor(private readonly db: Db) {}

  /** The newest event at or before `time` within [fromSeq, toSeq], or null. */
  @GenerateSql({ params: [1, 1_000, 1, 10] })
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

  @GenerateSql({ params: [1, 1] })
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
  @GenerateSql({ params: [[{ graphId: 1, seq: 1 }]] })
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
  @GenerateSql({
    params: [
      { graphId: 1, fromSeq: 1, toSeq: 10, direction: 'asc', limit: 50, maxBytes: 1_000_000 },
    ],
  })
  async page(q: EventPageQuery): Promise<EventRow[]> {
    return sizedPage(await this.listed(bounded(q)), toEventRow).rows;
  }

  /** `page`, each event as its stored JSON, bounded to `maxBytes`. */
  @GenerateSql(
    {
      params: [
        { graphId: 1, fromSeq: 1, toSeq: 10, direction: 'asc', limit: 50, maxBytes: 1_000_000 },
      ],
    },
    { name: 'desc', params: [{ graphId: 1, fromSeq: 1, toSeq: 10, direction: 'desc', limit: 50 }] },
  )
  async pageJson(q: EventPageQuery): Promise<SizedPage<EventJson>> {
    return eventsJsonPage(this.db, bounded(q));
  }

  /** eventsPage bounded to `maxBytes`, each row with `fits`. */
  private listed(q: BoundedEventPageQuery): Promise<(ListedRow & { fits: boolean })[]> {
    const maxBytes = sql.val(q.maxBytes);
    const page = eventsPage(
      this.db,
      {
        graphId: sql.val(q.graphId),
        fromSeq: sql.val(q.fromSeq),
        toSeq: sql.val(q.toSeq),
        limit: sql.val(q.limit),
      },
      q.direction,
    );
    return this.db
      .selectFrom(
        this.db
          .selectFrom(page.as('s'))
          .selectAll('s')
          .select(byteColumns(EVENT_BYTES, sql.ref('s.seq'), q.direction))
          .as('s'),
      )
      .where(readIn(maxBytes))
      .select([
        's.seq',
        's.type',
        's.created',
        's.node_no',
        ifFits<string>(maxBytes, 'public_json').as('public_json'),
        fitsIn(maxBytes).as('fits'),
      ])
      .orderBy('s.seq', q.direction)
      .execute();
  }

  /** `page`, each event with its node as it stood just after it and the next event's `created`. */
  @GenerateSql({
    params: [
      { graphId: 1, fromSeq: 1, toSeq: 10, direction: 'asc', limit: 50, maxBytes: 1_000_000 },
    ],
  })
  async pageWithNodes(q: EventPageQuery): Promise<SizedPage<EventWithNode>> {
    const rows = await pagesWithNodes[q.direction].rows(this.db, bounded(q));
    const nextCreated = nextCreatedOf(rows, q.toSeq);
    return sizedPage(rows, (r) => ({
      ...toEventRow(r),
      node:
        r.node_json === null
          ? null
          : recordOf({
              node_json: r.node_json,
              sort_key: r.sort_key!,
              created_seq: r.created_seq!,
            }),
      nextCreated: nextCreated(r),
    }));
  }

  /** `pageWithNodes` with events and nodes as their stored JSON. */
  @GenerateSql({
    params: [
      { graphId: 1, fromSeq: 1, toSeq: 10, direction: 'asc', limit: 50, maxBytes: 1_000_000 },
    ],
  })
  async pageJsonWithNodes(q: EventPageQuery): Promise<SizedPage<EventJsonWithNode>> {
    return eventsWithNodesJsonPage(this.db, bounded(q));
  }
}
