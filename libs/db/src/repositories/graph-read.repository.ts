import type { StoredGraphCounts } from '@graph-history/domain';
import { Db } from '../connection';
import { PreparedStatement } from '../prepared-statement';
import { activeWorkingCountSql } from './node-version-sql';

/** A graph's row as the read API sees it: identity, owner and the applied, retained range. */
export interface GraphRow {
  graphId: number;
  graphKey: string;
  accountId: number;
  source: 'watch' | 'paste' | 'upload';
  created: number;
  /** Newest applied event; 0 before the first. */
  appliedSeq: number;
  /** Oldest readable event; null before the first. */
  firstSeq: number | null;
  lastEvent: number | null;
  /** Counts after the newest event; null before the first. */
  counts: StoredGraphCounts | null;
  /** Set while applying is stopped at a stored event the reducer refused (graph reads only). */
  applyError?: GraphApplyError | null;
}

/** Why a graph's newer events are not readable: the stored event `seq` was refused. */
export interface GraphApplyError {
  seq: number;
  message: string;
  since: number;
}

/** Position of a graph in the graph list: `last_event` desc, then key. */
export interface GraphListPosition {
  lastEvent: number;
  graphKey: string;
}

export interface GraphListQuery {
  accountId: number;
  /** Only these graph keys (restricted keys); null for all of the account's graphs. */
  graphKeys: string[] | null;
  lastEvent: { gt?: number; gte?: number; lt?: number; lte?: number };
  /** Items after this position in list order, or before it (then returned nearest first). */
  after?: GraphListPosition;
  before?: GraphListPosition;
  limit: number;
}

const columns = [
  'g.graph_id',
  'g.graph_key',
  'g.account_id',
  'g.source',
  'g.created',
  'g.applied_seq',
  'g.first_seq',
  'g.last_event',
  'g.counts',
  'g.stalled_seq',
  'g.stalled_error',
  'g.stalled_at',
] as const;

/** The columns of a graphs row, as selected. */
export type GraphRowColumns = {
  graph_id: number;
  graph_key: string;
  account_id: number;
  source: GraphRow['source'];
  created: number;
  applied_seq: number;
  first_seq: number | null;
  last_event: number | null;
  counts: StoredGraphCounts | null;
  stalled_seq?: number | null;
  stalled_error?: string | null;
  stalled_at?: number | null;
};

export const toGraphRow = (r: GraphRowColumns): GraphRow => ({
  graphId: r.graph_id,
  graphKey: r.graph_key,
  accountId: r.account_id,
  source: r.source,
  created: r.created,
  appliedSeq: r.applied_seq,
  firstSeq: r.first_seq,
  lastEvent: r.last_event,
  counts: r.counts,
  applyError:
    r.stalled_seq == null
      ? null
      : { seq: r.stalled_seq, message: r.stalled_error ?? '', since: r.stalled_at ?? 0 },
});

/** A graph read's one round trip: the graph and the events that describe it at the moment. */
export interface GraphWithFacts {
  graph: GraphRow;
  firstEventCreated: number | null;
  /** `created` and `counts` of the moment's event (the newest when no sequence was given). */
  momentCreated: number | null;
  momentCounts: StoredGraphCounts | null;
  /** `created` of the event after the moment; null when the moment is the newest event. */
  nextCreated: number | null;
  /** Nodes working at the moment whose `last_event` is at or after the `activeSince` asked for. */
  activeWorking: number;
}

const graphByKey = new PreparedStatement<GraphRowColumns>(
  'gh_graph_by_key',
  `select ${columns.join(', ')}
  from graph_directory d join graphs g on g.graph_id = d.graph_id
  where d.graph_key = $1`,
);

const graphWithFacts = new PreparedStatement<
  GraphRowColumns & {
    first_created: number | null;
    moment_created: number | null;
    moment_counts: StoredGraphCounts | null;
    next_created: number | null;
    active_working: number;
  }
>(
  'gh_graph_with_facts',
  `select g.graph_id, g.graph_key, g.account_id, g.source, g.created, g.applied_seq, g.first_seq, g.last_event, g.counts,
    g.stalled_seq, g.stalled_error, g.stalled_at,
    (select e.created from events e where e.graph_id = g.graph_id and e.seq = g.first_seq) as first_created,
    (select e.created from events e where e.graph_id = g.graph_id and e.seq = m.seq) as moment_created,
    (select e.counts from events e where e.graph_id = g.graph_id and e.seq = m.seq) as moment_counts,
    (select e.created from events e where e.graph_id = g.graph_id and e.seq = m.seq + 1) as next_created,
    ${activeWorkingCountSql({ graphId: 'g.graph_id', seq: 'm.seq', since: '$3', until: 'g.last_event' })} as active_working
  from graph_directory d join graphs g on g.graph_id = d.graph_id,
    lateral (select least(coalesce($2::bigint, g.applied_seq), g.applied_seq) as seq) m
  where d.graph_key = $1`,
);

export class GraphReadRepository {
  constructor(private readonly db: Db) {}

  /**
   * The graph by key with its facts as of `seq` (or the newest event), each an index lookup, and
   * how many of its nodes are working at that moment with a `last_event` at or after `activeSince`.
   */
  async findWithFacts(
    graphKey: string,
    seq: number | null,
    activeSince: number,
  ): Promise<GraphWithFacts | null> {
    const [r] = await graphWithFacts.rows(this.db, [graphKey, seq, activeSince]);
    if (!r) return null;
    return {
      graph: toGraphRow(r),
      firstEventCreated: r.first_created,
      momentCreated: r.moment_created,
      momentCounts: r.moment_counts,
      nextCreated: r.next_created,
      activeWorking: r.active_working,
    };
  }

  async findByKey(graphKey: string): Promise<GraphRow | null> {
    const [row] = await graphByKey.rows(this.db, [graphKey]);
    return row ? toGraphRow(row) : null;
  }

  /**
   * One page of the account's watch graphs that have at least one event, in list order
   * (`last_event` desc, key asc); with `before`, the page nearest the cursor in reverse order.
   * Walks the index graphs_account_activity.
   */
  async list(q: GraphListQuery): Promise<GraphRow[]> {
    const reverse = q.before !== undefined;
    let query = this.db
      .selectFrom('graphs as g')
      .select(columns)
      .where('g.account_id', '=', q.accountId)
      .where('g.source', '=', 'watch')
      .where('g.last_event', 'is not', null);
    if (q.graphKeys)
      query = query.where('g.graph_key', 'in', q.graphKeys.length ? q.graphKeys : ['']);
    const { gt, gte, lt, lte } = q.lastEvent;
    if (gt !== undefined) query = query.where('g.last_event', '>', gt);
    if (gte !== undefined) query = query.where('g.last_event', '>=', gte);
    if (lt !== undefined) query = query.where('g.last_event', '<', lt);
    if (lte !== undefined) query = query.where('g.last_event', '<=', lte);
    if (q.after) {
      const { lastEvent, graphKey } = q.after;
      query = query.where((eb) =>
        eb.or([
          eb('g.last_event', '<', lastEvent),
          eb.and([eb('g.last_event', '=', lastEvent), eb('g.graph_key', '>', graphKey)]),
        ]),
      );
    }
    if (q.before) {
      const { lastEvent, graphKey } = q.before;
      query = query.where((eb) =>
        eb.or([
          eb('g.last_event', '>', lastEvent),
          eb.and([eb('g.last_event', '=', lastEvent), eb('g.graph_key', '<', graphKey)]),
        ]),
      );
    }
    const rows = await query
      // nulls placement matches the index, so the page is an index walk
      .orderBy('g.last_event', (ob) => (reverse ? ob.asc().nullsFirst() : ob.desc().nullsLast()))
      .orderBy('g.graph_key', reverse ? 'desc' : 'asc')
      .limit(q.limit)
      .execute();
    return rows.map(toGraphRow);
  }
}
