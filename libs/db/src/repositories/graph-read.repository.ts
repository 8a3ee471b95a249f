import type { ShownGraphCounts, StoredGraphCounts } from '@graph-history/domain';
import { sql } from 'kysely';
import { Db } from '../connection';
import { BatchedStatement } from '../batched-statement';
import { pgArg, PreparedStatement } from '../prepared-statement';
import {
  GRAPH_COLUMNS,
  GRAPH_HEAD_COLUMNS,
  GRAPH_STALL_COLUMNS,
  graphById,
  graphHeadOf,
  GraphRowColumns,
  momentSeq,
  nextEventCreated,
  shownCounts,
  toGraphRow,
} from './graph-queries';
import { activeWorkingCount } from './node-version-queries';
import { batchRows } from './unnest-rows';
import { GenerateSql } from '../sql-text/generate-sql';

/**
 * What a read of a graph's objects needs of its row: identity, owner and the applied, retained
 * range.
 */
export interface GraphHead {
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
}

/** A graph's row as a read of the graph itself sees it: its head, counts and apply error. */
export interface GraphRow extends GraphHead {
  /** Counts after the newest event; null before the first. */
  counts: ShownGraphCounts | null;
  /** Set while applying is stopped at a stored event the reducer refused (graph reads only). */
  applyError?: GraphApplyError | null;
}

/** Why a graph's newer events are not readable: the stored event `seq` was refused. */
export interface GraphApplyError {
  seq: number;
  message: string;
  since: number;
}

/** Which graphs a graph list holds: the account's watch graphs with events, filtered. */
export interface GraphListFilter {
  accountId: number;
  /** Only these graph keys (restricted keys); null for all of the account's graphs. */
  graphKeys: string[] | null;
  lastEvent: { gt?: number; gte?: number; lt?: number; lte?: number };
}

export interface GraphListQuery extends GraphListFilter {
  /** Items after this graph (an id) in list order, or before it (then returned nearest first). */
  after?: number;
  before?: number;
  limit: number;
  /** Now, and the instant from which a working node's `last_event` keeps it active (not stale). */
  now: number;
  activeSince: number;
}

/** A graph of a graph list page, with what its Graph shows as of its newest event. */
export interface ListedGraph {
  graph: GraphRow;
  firstEventCreated: number | null;
  /** Working nodes last touched at or after `activeSince` (to `now`, or the newest event). */
  activeWorking: number;
}

/** A graph by id as of an event: what a moment needs besides the row, in the same round trip. */
export interface GraphAt {
  graph: GraphHead;
  /** The event read at: the one asked for, or the newest when none was given or it is later. */
  seq: number;
  /** `created` of the event after `seq`; null when `seq` is the newest event. */
  nextCreated: number | null;
}

/** A graph read's one round trip: the graph and the events that describe it at the moment. */
export interface GraphWithFacts {
  graph: GraphRow;
  /** The event read at: the one asked for, or the newest when none was given or it is later. */
  seq: number;
  firstEventCreated: number | null;
  /** `created` and `counts` of the moment's event (the newest when no sequence was given). */
  momentCreated: number | null;
  momentCounts: StoredGraphCounts | null;
  /** `created` of the event after the moment; null when the moment is the newest event. */
  nextCreated: number | null;
  /**
   * Nodes working at the moment and not stale at its instant: last touched at or after the
   * `activeSince` asked for when the moment is the newest event (or its next event is gone), else
   * at or after the next event's `created` minus the `staleAfterMs` asked for.
   */
  activeWorking: number;
}

const findById = new PreparedStatement(
  'gh_graph_by_id',
  { graphId: pgArg<number>('bigint') },
  (db, arg) => graphById(db, arg.graphId).select(GRAPH_COLUMNS),
);

const idByKey = new PreparedStatement(
  'gh_graph_id_by_key',
  { graphKey: pgArg<string>('text') },
  (db, arg) =>
    db.selectFrom('graph_directory').select('graph_id').where('graph_key', '=', arg.graphKey),
);

/** The graph's head by id, the moment's sequence and the next event's `created` (see GraphAt). */
const findAt = new PreparedStatement(
  'gh_graph_at',
  { graphId: pgArg<number>('bigint'), seq: pgArg<number | null>('bigint') },
  (db, arg) =>
    graphById(db, arg.graphId)
      .select(GRAPH_HEAD_COLUMNS)
      .select((eb) => {
        const seq = momentSeq(eb, arg.seq);
        return [seq.as('seq'), nextEventCreated(eb, seq).as('next_created')];
      }),
  { asJson: true },
);

/**
 * A graph's row and its moment's facts, one index probe per events row (the first retained, the
 * moment's, the next one for a past moment) and one active working count, at the moment's instant:
 * `activeSince` for the newest event, else the next event's `created` minus `staleAfterMs`. For a
 * past moment the count is the next event's `active_before` when the apply stored it with the same
 * `staleAfterMs`; only otherwise are the versions of the window scanned.
 */
/** gh_graph_with_facts over items of any graphs, or (`oneGraph`) of the graph `graph` only. */
const graphWithFacts = (oneGraph: boolean) =>
  new PreparedStatement(
    oneGraph ? 'gh_graph_with_facts_1g' : 'gh_graph_with_facts',
    {
      graph: pgArg<number>('bigint'),
      graphIds: pgArg<number[]>('bigint[]'),
      seqs: pgArg<(number | null)[]>('bigint[]'),
      activeSince: pgArg<number[]>('bigint[]'),
      staleAfterMs: pgArg<number[]>('bigint[]'),
    },
    (db, arg) =>
      db
        .selectFrom(
          batchRows<{
            graph_id: number;
            seq: number | null;
            active_since: number;
            stale_after_ms: number;
          }>({
            graph_id: arg.graphIds,
            seq: arg.seqs,
            active_since: arg.activeSince,
            stale_after_ms: arg.staleAfterMs,
          }),
        )
        .innerJoinLateral(
          (eb) =>
            graphById(db, oneGraph ? arg.graph : eb.ref('p.graph_id'))
              .select(GRAPH_COLUMNS)
              .select((g) => momentSeq(g, eb.ref('p.seq')).as('seq'))
              .as('g'),
          (join) => join.onTrue(),
        )
        .leftJoin('events as f', (j) =>
          j.onRef('f.graph_id', '=', 'g.graph_id').onRef('f.seq', '=', 'g.first_seq'),
        )
        .leftJoin('events as m', (j) =>
          j.onRef('m.graph_id', '=', 'g.graph_id').onRef('m.seq', '=', 'g.seq'),
        )
        .leftJoin('events as n', (j) =>
          j
            .onRef('n.graph_id', '=', 'g.graph_id')
            .on((eb) => eb('n.seq', '=', eb('g.seq', '+', sql.lit(1))))
            .onRef('g.seq', '<', 'g.applied_seq'),
        )
        .select(['p.i', ...GRAPH_COLUMNS])
        .select([
          'g.seq',
          'f.created as first_created',
          'm.created as moment_created',
          'm.counts as moment_counts',
          'n.created as next_created',
        ])
        .select((eb) =>
          eb
            .case()
            // a past moment's count, stored with the next event by the apply, when it was judged
            // with this threshold; the scan (only then run) for the newest moment and other rows
            .when('n.stale_after_ms', '=', eb.ref('p.stale_after_ms'))
            .then(eb.ref('n.active_before').$notNull())
            .else(
              activeWorkingCount({
                graphId: eb.ref('g.graph_id'),
                seq: eb.ref('g.seq'),
                since: eb.fn.coalesce(
                  eb('n.created', '-', eb.ref('p.stale_after_ms')),
                  eb.ref('p.active_since'),
                ),
                until: eb.fn.coalesce('n.created', 'g.last_event'),
              }).$notNull(),
            )
            .end()
            .as('active_working'),
        ),
    { asJson: true },
  );

const findWithFacts = new BatchedStatement(
  { anyGraph: graphWithFacts(false), oneGraph: graphWithFacts(true) },
  (
    items: readonly {
      graphId: number;
      seq: number | null;
      activeSince: number;
      staleAfterMs: number;
    }[],
  ) => ({
    graph: items[0]!.graphId,
    graphIds: items.map((x) => x.graphId),
    seqs: items.map((x) => x.seq),
    activeSince: items.map((x) => x.activeSince),
    staleAfterMs: items.map((x) => x.staleAfterMs),
  }),
  (item) => item.graphId,
);

const MIN_BIGINT = sql.raw<number>('(-9223372036854775807 - 1)');
const MAX_BIGINT = sql.raw<number>('9223372036854775807');

const LIST_ARGS = {
  accountId: pgArg<number>('bigint'),
  graphKeys: pgArg<string[] | null>('text[]'),
  gt: pgArg<number | null>('bigint'),
  gte: pgArg<number | null>('bigint'),
  lt: pgArg<number | null>('bigint'),
  lte: pgArg<number | null>('bigint'),
  cursorId: pgArg<number | null>('bigint'),
  limit: pgArg<number>('int'),
  now: pgArg<number>('bigint'),
  activeSince: pgArg<number>('bigint'),
};

/** A listed graph as the page's JSON holds it: its GRAPH_COLUMNS and two facts, by name. */
type ListedColumns = Omit<GraphRowColumns, 'counts'> & {
  counts: ShownGraphCounts | null;
  first_created: number | null;
  active_working: number;
};

/**
 * A graph list page in one statement: the account's watch graphs with events, within the
 * filters, in list order (`last_event` desc, key asc; reversed for `before` pages) from the cursor
 * graph's position on, the cursor itself first when the list holds it: a walk of
 * graphs_account_activity from the cursor's `last_event`. Each graph of the page then gets its
 * first retained event's `created` and its active working nodes now. The page travels as ONE json
 * value, an array of each listed row as a json object: pg's work per row and per field costs
 * more than the values.
 */
const listPage = (reverse: boolean) =>
  new PreparedStatement(reverse ? 'gh_graph_list_before' : 'gh_graph_list', LIST_ARGS, (db, a) => {
    const cursor = <C extends 'last_event' | 'graph_key'>(column: C) =>
      db.selectFrom('graphs as c').select(`c.${column}`).where('c.graph_id', '=', a.cursorId);
    const page = db
      .selectFrom('graphs as g')
      .select(GRAPH_COLUMNS)
      .where('g.account_id', '=', a.accountId)
      .where('g.source', '=', sql.lit('watch'))
      .where('g.last_event', 'is not', null)
      .where((eb) =>
        eb.or([
          eb(a.graphKeys, 'is', null),
          eb('g.graph_key', '=', sql<string>`any(${a.graphKeys})`),
        ]),
      )
      // absent bounds as the widest ones, so that every bound is an index condition
      .where('g.last_event', '>', (eb) => eb.fn.coalesce(a.gt, MIN_BIGINT))
      .where('g.last_event', '>=', (eb) => eb.fn.coalesce(a.gte, MIN_BIGINT))
      .where('g.last_event', '<', (eb) => eb.fn.coalesce(a.lt, MAX_BIGINT))
      .where('g.last_event', '<=', (eb) => eb.fn.coalesce(a.lte, MAX_BIGINT))
      .where((eb) => {
        const at = eb.fn.coalesce(
          cursor('last_event').$asScalar(),
          reverse ? MIN_BIGINT : MAX_BIGINT,
        );
        const key = eb.fn.coalesce(cursor('graph_key').$asScalar(), sql.lit(''));
        return eb.and([
          eb('g.last_event', reverse ? '>=' : '<=', at),
          eb.or([
            eb('g.last_event', reverse ? '>' : '<', at),
            eb('g.graph_key', reverse ? '<=' : '>=', key),
          ]),
        ]);
      })
      // nulls placement matches the index, so the page is an index walk
      .orderBy('g.last_event', (ob) => (reverse ? ob.asc().nullsFirst() : ob.desc().nullsLast()))
      .orderBy('g.graph_key', reverse ? 'desc' : 'asc')
      .limit(a.limit);
    const listed = db
      .selectFrom(page.as('g'))
      .select([...GRAPH_HEAD_COLUMNS, ...GRAPH_STALL_COLUMNS])
      .select(shownCounts().as('counts'))
      .select((eb) => [
        eb
          .selectFrom('events as e')
          .select('e.created')
          .whereRef('e.graph_id', '=', 'g.graph_id')
          .whereRef('e.seq', '=', 'g.first_seq')
          .$asScalar()
          .as('first_created'),
        activeWorkingCount({
          graphId: eb.ref('g.graph_id'),
          seq: eb.ref('g.applied_seq'),
          since: a.activeSince,
          // versions valid now were last touched by now, or by the newest event when its
          // sender's clock ran ahead of ours
          until: eb.fn('greatest', [a.now, eb.ref('g.last_event')]),
        }).as('active_working'),
      ]);
    const order = reverse
      ? sql`asc nulls first, g.graph_key desc`
      : sql`desc nulls last, g.graph_key asc`;
    return db
      .selectFrom(listed.as('g'))
      .select(sql<ListedColumns[] | null>`json_agg(g order by g.last_event ${order})`.as('page'));
  });
const listPages = { after: listPage(false), before: listPage(true) };

export class GraphReadRepository {
  constructor(private readonly db: Db) {}

  /** The id of the graph named by `graphKey` (it never changes), or null for an unknown key. */
  @GenerateSql({ params: ['g1'] })
  async idByKey(graphKey: string): Promise<number | null> {
    const [row] = await idByKey.rows(this.db, { graphKey });
    return row ? row.graph_id : null;
  }

  /** The graph by id as of event `seq` (or the newest): one index lookup each. */
  @GenerateSql({ params: [1, 1] }, { name: 'newest', params: [1, null] })
  async findAt(graphId: number, seq: number | null): Promise<GraphAt | null> {
    const [r] = await findAt.rows(this.db, { graphId, seq });
    return r ? { graph: graphHeadOf(r), seq: r.seq, nextCreated: r.next_created } : null;
  }

  /**
   * The graph by id with its facts as of `seq` (or the newest event), each an index lookup, and
   * how many of its nodes are working and not stale at that moment (see GraphWithFacts).
   */
  @GenerateSql({ params: [1, 1, 1_000, 60_000] })
  async findWithFacts(
    graphId: number,
    seq: number | null,
    activeSince: number,
    staleAfterMs: number,
  ): Promise<GraphWithFacts | null> {
    const r = await findWithFacts.load(this.db, { graphId, seq, activeSince, staleAfterMs });
    if (!r) return null;
    return {
      graph: toGraphRow(r),
      seq: r.seq,
      firstEventCreated: r.first_created,
      momentCreated: r.moment_created,
      momentCounts: r.moment_counts,
      nextCreated: r.next_created,
      activeWorking: r.active_working,
    };
  }

  @GenerateSql({ params: [1] })
  async findById(graphId: number): Promise<GraphRow | null> {
    const [row] = await findById.rows(this.db, { graphId });
    return row ? toGraphRow(row) : null;
  }

  /**
   * One page of the account's watch graphs that have at least one event, in list order
   * (`last_event` desc, key asc); with `before`, the page nearest the cursor in reverse order.
   * Null when the cursor graph is not one of this list.
   */
  @GenerateSql(
    {
      params: [
        { accountId: 1, graphKeys: null, lastEvent: {}, limit: 50, now: 2_000, activeSince: 1_000 },
      ],
    },
    {
      name: 'after, filtered',
      params: [
        {
          accountId: 1,
          graphKeys: ['g1'],
          lastEvent: { gte: 1_000, lt: 3_000 },
          after: 1,
          limit: 50,
          now: 2_000,
          activeSince: 1_000,
        },
      ],
    },
    {
      name: 'before',
      params: [
        {
          accountId: 1,
          graphKeys: null,
          lastEvent: {},
          before: 2,
          limit: 50,
          now: 2_000,
          activeSince: 1_000,
        },
      ],
    },
  )
  async list(q: GraphListQuery): Promise<ListedGraph[] | null> {
    const cursorId = q.before ?? q.after ?? null;
    const { gt = null, gte = null, lt = null, lte = null } = q.lastEvent;
    const [{ page } = { page: null }] = await listPages[
      q.before === undefined ? 'after' : 'before'
    ].rows(this.db, {
      accountId: q.accountId,
      graphKeys: q.graphKeys,
      gt,
      gte,
      lt,
      lte,
      cursorId,
      limit: q.limit + (cursorId === null ? 0 : 1),
      now: q.now,
      activeSince: q.activeSince,
    });
    const rows = page ?? [];
    if (cursorId !== null && rows.shift()?.graph_id !== cursorId) return null;
    return rows.map(listedGraph);
  }
}

const listedGraph = (r: ListedColumns): ListedGraph => ({
  graph: toGraphRow(r),
  firstEventCreated: r.first_created,
  activeWorking: r.active_working,
});
