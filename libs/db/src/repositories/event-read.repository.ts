import {
  storedListedEvent,
  type NodeRecord,
  type StoredEvent,
  type StoredGraphCounts,
} from '@graph-history/domain';
import { sql } from 'kysely';
import { Db } from '../connection';
import { pgArg, PreparedStatement } from '../prepared-statement';
import { nodeJsonOrRecord, type NodeJsonOrRecord } from './node-json-row';
import { eventsJsonPage, eventsWithNodesJsonPage } from './event-json-pages';
import { eventsPage, PAGE_ARGS, pageWithNodesQuery } from './event-page-queries';
import { nextCreatedOf } from './next-created';
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

const pageWithNodes = (direction: 'asc' | 'desc') =>
  new PreparedStatement(`gh_events_with_nodes_${direction}`, PAGE_ARGS, (db, arg) =>
    pageWithNodesQuery(db, arg, direction),
  );
const pagesWithNodes = { asc: pageWithNodes('asc'), desc: pageWithNodes('desc') };

type ListedRow = {
  seq: number;
  type: string;
  created: number;
  node_no: number;
  public_json: string | null;
  source: EventRow['source'] | null;
  payload: EventRow['payload'] | null;
  changes: EventRow['changes'] | null;
};

const toEventRow = (r: ListedRow): EventRow =>
  storedListedEvent({
    seq: r.seq,
    type: r.type,
    created: r.created,
    nodeNo: r.node_no,
    source: r.source,
    payload: r.payload,
    changes: r.changes,
    json: r.public_json,
  });

/** An event of a page as its stored JSON, or as its row where it has none (older rows). */
export type EventJsonOrRow = { seq: number } & (
  { json: string; row: null } | { json: null; row: EventRow }
);

const toJsonOrRow = (r: ListedRow): EventJsonOrRow =>
  r.public_json === null
    ? { seq: r.seq, json: null, row: toEventRow(r) }
    : { seq: r.seq, json: r.public_json, row: null };

/** An event of a page as JSON, with its node (see EventWithNode). */
export type EventJsonWithNode = EventJsonOrRow & {
  node: NodeJsonOrRecord | null;
  nextCreated: number | null;
};

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
    return (await this.listed(q, true)).map(toEventRow);
  }

  /** `page`, each event as its stored JSON where it has one. */
  async pageJson(q: EventPageQuery): Promise<EventJsonOrRow[]> {
    return (await eventsJsonPage(this.db, q)) ?? (await this.listed(q, false)).map(toJsonOrRow);
  }

  private listed(q: EventPageQuery, objects: boolean): Promise<ListedRow[]> {
    return eventsPage(
      this.db,
      {
        graphId: sql.val(q.graphId),
        fromSeq: sql.val(q.fromSeq),
        toSeq: sql.val(q.toSeq),
        limit: sql.val(q.limit),
        objects: sql.val(objects),
      },
      q.direction,
    ).execute();
  }

  /** `page`, each event with its node as it stood just after it and the next event's `created`. */
  async pageWithNodes(q: EventPageQuery): Promise<EventWithNode[]> {
    const rows = await pagesWithNodes[q.direction].rows(this.db, { ...q, objects: true });
    const nextCreated = nextCreatedOf(rows, q.toSeq);
    return rows.map((r) => ({
      ...toEventRow(r),
      node: nodeJsonOrRecord(r, true)?.rec ?? null,
      nextCreated: nextCreated(r),
    }));
  }

  /** `pageWithNodes` with events and nodes as their stored JSON where they have one. */
  async pageJsonWithNodes(q: EventPageQuery): Promise<EventJsonWithNode[]> {
    const stored = await eventsWithNodesJsonPage(this.db, q);
    if (stored) return stored;
    const rows = await pagesWithNodes[q.direction].rows(this.db, { ...q, objects: false });
    const nextCreated = nextCreatedOf(rows, q.toSeq);
    return rows.map((r) => ({
      ...toJsonOrRow(r),
      node: nodeJsonOrRecord(r),
      nextCreated: nextCreated(r),
    }));
  }
}
