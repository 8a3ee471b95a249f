import type { StoredEvent, StoredGraphCounts } from '@graph-history/domain';
import { Db } from '../connection';
import { pgArg, PreparedStatement } from '../prepared-statement';
import { unnestRows } from './unnest-rows';

/** `created` and `counts` of one event. */
export interface EventFacts {
  seq: number;
  created: number;
  counts: StoredGraphCounts;
}

/** An event as the events list shows it. */
export type EventRow = Omit<StoredEvent, 'key' | 'counts'>;

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
    const rows = await this.db
      .selectFrom('events')
      .select(['seq', 'type', 'created', 'node_no', 'source', 'payload', 'changes'])
      .where('graph_id', '=', q.graphId)
      .where('seq', '>=', q.fromSeq)
      .where('seq', '<=', q.toSeq)
      .orderBy('seq', q.direction)
      .limit(q.limit)
      .execute();
    return rows.map((r) => ({
      seq: r.seq,
      type: r.type,
      created: r.created,
      nodeNo: r.node_no,
      source: r.source,
      payload: r.payload,
      changes: r.changes,
    }));
  }
}
