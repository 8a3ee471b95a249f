import {
  storedListedEvent,
  type StoredNodeRecord,
  type NodeRecord,
  type StoredEvent,
  type StoredGraphCounts,
} from '@graph-history/domain';
import { sql, type Expression, type Kysely } from 'kysely';
import { Db } from '../connection';
import { pgArg, PreparedStatement } from '../prepared-statement';
import type { Database } from '../schema';
import { nodeJsonOrRecord, type NodeJsonOrRecord } from './node-json-row';
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

type PageArgs = { [K in 'graphId' | 'fromSeq' | 'toSeq' | 'limit']: Expression<number> } & {
  objects: Expression<boolean>;
};

/**
 * The events of one page, in scan order: `public_json`, and the jsonb columns only where it is
 * null or `objects` asks for them (pg then parses no JSON for rows sent as they are stored).
 */
const eventsPage = (db: Kysely<Database>, q: PageArgs, direction: 'asc' | 'desc') =>
  db
    .selectFrom('events')
    .select(['seq', 'type', 'created', 'node_no', 'public_json'])
    .select([
      sql<
        EventRow['source'] | null
      >`case when ${q.objects} or public_json is null then source end`.as('source'),
      sql<
        EventRow['payload'] | null
      >`case when ${q.objects} or public_json is null then payload end`.as('payload'),
      sql<
        EventRow['changes'] | null
      >`case when ${q.objects} or public_json is null then changes end`.as('changes'),
    ])
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
  objects: pgArg<boolean>('boolean'),
};

const LISTED = [
  'seq',
  'type',
  'created',
  'node_no',
  'public_json',
  'source',
  'payload',
  'changes',
] as const;

/**
 * A page of events with each event's node as of it, in one statement: the version the event
 * wrote is a primary-key equality probe (`valid_from = seq`); only an event that wrote none falls
 * back (a lateral probe that is skipped otherwise) to the newest earlier version. No window or
 * sort: rows keep the events index's order. The node's `rec` comes only where its `public_json`
 * is null or `objects` asks for it.
 */
const pageWithNodes = (direction: 'asc' | 'desc') =>
  new PreparedStatement(`gh_events_with_nodes_${direction}`, PAGE_ARGS, (db, arg) =>
    db
      .selectFrom(eventsPage(db, arg, direction).as('e'))
      // lateral with a limit: always a primary-key probe per event (a plain join may be
      // planned as a hash join over every version of the graph, and a sort)
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('node_versions as v')
            .select([
              'v.node_no',
              'v.public_json',
              'v.rec',
              'v.sort_key',
              'v.created_seq',
              'v.state',
              'v.last_event',
            ])
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
            .select([
              'v.public_json',
              'v.rec',
              'v.sort_key',
              'v.created_seq',
              'v.state',
              'v.last_event',
            ])
            .as('f'),
        (join) => join.onTrue(),
      )
      .select((eb) => [
        ...LISTED.map((c) => `e.${c}` as const),
        eb.fn.coalesce('w.public_json', 'f.public_json').as('node_json'),
        sql<StoredNodeRecord | null>`case when ${arg.objects} or coalesce(w.public_json, f.public_json) is null
          then coalesce(w.rec, f.rec) end`.as('rec'),
        sql<string | null>`case when ${arg.objects} then coalesce(w.sort_key, f.sort_key) end`.as(
          'sort_key',
        ),
        sql<
          number | null
        >`case when ${arg.objects} then coalesce(w.created_seq, f.created_seq) end`.as(
          'created_seq',
        ),
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
      .orderBy('e.seq', direction),
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
    return (await this.listed(q, false)).map(toJsonOrRow);
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
    const rows = await pagesWithNodes[q.direction].rows(this.db, { ...q, objects: false });
    const nextCreated = nextCreatedOf(rows, q.toSeq);
    return rows.map((r) => ({
      ...toJsonOrRow(r),
      node: nodeJsonOrRecord(r),
      nextCreated: nextCreated(r),
    }));
  }
}

/** Each row's next event's `created`: on the page, or past its top (see EventWithNode). */
function nextCreatedOf(
  rows: { seq: number; created: number; after_created: number | null }[],
  toSeq: number,
) {
  const createdAt = new Map(rows.map((r) => [r.seq, r.created]));
  return (r: { seq: number }) =>
    createdAt.get(r.seq + 1) ?? (r.seq === toSeq ? rows[0]!.after_created : null);
}
