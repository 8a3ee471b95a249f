import {
  descendantsUpperBound,
  type NodeKind,
  type NodeRecord,
  type NodeState,
} from '@graph-history/domain';
import { sql, type AliasedExpression } from 'kysely';
import { Db } from '../connection';
import { BatchedStatement } from '../batched-statement';
import { pgArg, PreparedStatement } from '../prepared-statement';
import {
  GRAPH_HEAD_COLUMNS,
  graphHeadOf,
  GraphHeadColumns,
  momentSeq,
  nextEventCreated,
} from './graph-queries';
import { GraphHead } from './graph-read.repository';
import { activeWorkingCount, notSuperseded, versionAt } from './node-version-queries';
import { batchRows, pgArray, unnestNodesAt, unnestRows } from './unnest-rows';
import { groupByOrdinal } from './ordinal-groups';
import {
  boundedRows,
  byteColumns,
  fitsIn,
  ifFits,
  readIn,
  sizedPage,
  UNBOUNDED_BYTES,
  type SizedPage,
} from './page-bytes';
import {
  nodeJsonOf,
  RECORD_COLUMNS,
  recordColumns,
  recordOf,
  type NodeJson,
  type NodeRecordColumns,
} from './node-json-row';
import { GenerateSql } from '../sql-text/generate-sql';

/** A node number and the event sequence to read it at. */
export interface NodeAt {
  nodeNo: number;
  seq: number;
}

/** A subtree scan: every node under `sortKey`, optionally at most `maxDepth` (absolute depth). */
export interface SubtreeAt {
  sortKey: string;
  maxDepth: number | null;
  seq: number;
}

/** Which nodes a nodes list holds: those of a graph as of `seq` that pass the filters. */
export interface NodeListFilter {
  graphId: number;
  seq: number;
  parentNo?: number;
  /** Only nodes under this node, optionally down to an absolute depth. */
  subtree?: { nodeNo: number; sortKey: string; maxDepth: number | null };
  kind?: NodeKind;
  state?: NodeState;
}

export interface NodePageQuery extends NodeListFilter {
  /** `created`: node number order (creation order); `tree`: sort-key order (pre-order). */
  order: 'created' | 'tree';
  /** Items after / before this node in list order; `before` pages come back nearest first. */
  after?: NodeRecord;
  before?: NodeRecord;
  limit: number;
  /** Bytes of stored JSON the page may hold (see EventPageQuery); unbounded when absent. */
  maxBytes?: number;
}

/**
 * Lists of records, one per input; `cutFrom`, the index of the first list of which rows were left
 * out for a byte bound (it and the lists after it are not whole), else null.
 */
export interface RecordLists {
  lists: NodeRecord[][];
  cutFrom: number | null;
}

/** A version's bytes in SQL: its public JSON's. */
const VERSION_BYTES = sql<number>`octet_length(v.public_json)`.as('size');

const groupRecords = (count: number, rows: (NodeRecordColumns & { i: number })[]) =>
  groupByOrdinal(count, rows, recordOf);

/** The record columns of a subquery aliased `a`, for its outer query (see recordColumns). */
const recordColumnsOf = <A extends string>(a: A) =>
  RECORD_COLUMNS.map((c) => `${a}.${c}` as `${A}.${(typeof RECORD_COLUMNS)[number]}`);

/** A node read's row but its stored JSON, as `r` of gh_node_with_graph holds it (one json object). */
interface NodeWithGraphColumns extends GraphHeadColumns {
  seq: number;
  sort_key: string | null;
  created_seq: number | null;
  node_state: string | null;
  node_last_event: number | null;
  next_created: number | null;
}

/** A node read: the node `nodeNo` of graph `graphId` as of event `seq` (null: the newest). */
export interface NodeReadItem {
  graphId: number;
  nodeNo: number;
  seq: number | null;
  /** Expansions follow: the record comes too, and the next event's `created` whatever the state. */
  objects: boolean;
}

/**
 * Node reads, many at once (see BatchedStatement): for each, the graph's head and the node's
 * version by a lateral join. The stored JSON, the bulk of the row, comes as its own text column
 * (no escaping into json and back); the rest as one json object of named columns (pg describes and parses three
 * fields, not sixteen). The next event's `created` only where `stale` can need it: a plain read
 * of a node that is not working is never stale, whatever the moment's instant. `sort_key` and
 * `created_seq`, which a record needs besides the JSON, only for reads with expansions.
 */
const NODE_READ_ARGS = {
  graph: pgArg<number>('bigint'),
  graphIds: pgArg<number[]>('bigint[]'),
  nodeNos: pgArg<number[]>('int[]'),
  seqs: pgArg<(number | null)[]>('bigint[]'),
  objects: pgArg<boolean[]>('boolean[]'),
};

/** gh_node_with_graph over items of any graphs, or (`oneGraph`) of the graph `graph` only. */
const nodeWithGraph = (oneGraph: boolean) =>
  new PreparedStatement(
    oneGraph ? 'gh_node_with_graph_1g' : 'gh_node_with_graph',
    NODE_READ_ARGS,
    (db, arg) =>
      db
        .selectFrom(
          batchRows<{ graph_id: number; node_no: number; seq: number | null; objects: boolean }>({
            graph_id: arg.graphIds,
            node_no: arg.nodeNos,
            seq: arg.seqs,
            objects: arg.objects,
          }),
        )
        .innerJoin('graphs as g', (j) =>
          oneGraph ? j.on('g.graph_id', '=', arg.graph) : j.onRef('g.graph_id', '=', 'p.graph_id'),
        )
        .leftJoinLateral(
          (eb) =>
            versionAt(eb.ref('g.graph_id'), eb.ref('p.node_no'), momentSeq(eb, eb.ref('p.seq')))
              .select([
                'v.public_json as node_json',
                sql<string | null>`case when p.objects then v.sort_key end`.as('sort_key'),
                sql<number | null>`case when p.objects then v.created_seq end`.as('created_seq'),
                'v.state as node_state',
                'v.last_event as node_last_event',
              ])
              .as('v'),
          (join) => join.onTrue(),
        )
        // named columns, which Postgres folds into the one row_to_json below (no subquery scan)
        .crossJoinLateral((eb) => {
          const seq = momentSeq(eb, eb.ref('p.seq'));
          return sql`(select ${sql.join(GRAPH_HEAD_COLUMNS.map((c) => sql.ref(c)))},
            ${seq} as seq, v.sort_key, v.created_seq, v.node_state, v.node_last_event,
            case when v.node_state is null or v.node_state = 'working' or p.objects
              then ${nextEventCreated(eb, seq)} end as next_created)`.as('r');
        })
        .select(['p.i', sql<NodeWithGraphColumns>`row_to_json(r)`.as('r'), 'v.node_json']),
  );

const findWithGraph = new BatchedStatement(
  { anyGraph: nodeWithGraph(false), oneGraph: nodeWithGraph(true) },
  (items: readonly NodeReadItem[]) => ({
    graph: items[0]!.graphId,
    graphIds: items.map((x) => x.graphId),
    nodeNos: items.map((x) => x.nodeNo),
    seqs: items.map((x) => x.seq),
    objects: items.map((x) => x.objects),
  }),
  (item) => item.graphId,
);

const countActiveWorking = new PreparedStatement(
  'gh_active_working',
  {
    graphIds: pgArg<number[]>('bigint[]'),
    seqs: pgArg<number[]>('bigint[]'),
    since: pgArg<number[]>('bigint[]'),
    until: pgArg<number[]>('bigint[]'),
  },
  (db, arg) =>
    db
      .selectFrom(
        unnestRows<{ graph_id: number; seq: number; since: number; until: number }>({
          graph_id: arg.graphIds,
          seq: arg.seqs,
          since: arg.since,
          until: arg.until,
        }),
      )
      .select((eb) => [
        'p.i',
        activeWorkingCount({
          graphId: eb.ref('p.graph_id'),
          seq: eb.ref('p.seq'),
          since: eb.ref('p.since'),
          until: eb.ref('p.until'),
        }).as('n'),
      ]),
);

const findManyAt = new PreparedStatement(
  'gh_nodes_at',
  {
    graphId: pgArg<number>('bigint'),
    nodeNos: pgArg<number[]>('int[]'),
    seqs: pgArg<number[]>('bigint[]'),
  },
  (db, arg) =>
    db
      .selectFrom(
        unnestRows<{ node_no: number; seq: number }>({ node_no: arg.nodeNos, seq: arg.seqs }),
      )
      .crossJoinLateral((eb) =>
        versionAt(arg.graphId, eb.ref('p.node_no'), eb.ref('p.seq'))
          .select(recordColumns('v'))
          .as('x'),
      )
      .select(['p.i', ...recordColumnsOf('x')]),
);

/** A node read's one round trip: the graph, the node as of the moment, the next event's time. */
export interface NodeWithGraph {
  graph: GraphHead;
  /** The event read at: the one asked for, or the newest when none was given or it is later. */
  seq: number;
  /** The node as of `seq`; null when it did not exist. */
  node: NodeJson | null;
  /** The node's record, only when asked for `objects`. */
  record: NodeRecord | null;
  /** `created` of the event after the moment; null when the moment is the newest event. */
  nextCreated: number | null;
}

/** Node version rows read as of an event: single nodes, lists and batched expansions. */
export class NodeReadRepository {
  constructor(private readonly db: Db) {}

  /**
   * The hot path of node reads in one prepared statement: graph by id, the node's version as of
   * `seq` or the newest event, and the next event's `created`; each an index lookup. The node
   * comes as its stored JSON, and also as its record when `objects` asks for it (expansions).
   */
  @GenerateSql({ params: [1, 1, 1] }, { name: 'newest, json only', params: [1, 1, null, false] })
  async findWithGraph(
    graphId: number,
    nodeNo: number,
    seq: number | null,
    objects = true,
  ): Promise<NodeWithGraph | null> {
    const row = await findWithGraph.load(this.db, { graphId, nodeNo, seq, objects });
    if (!row) return null;
    const { r } = row;
    const node = nodeJsonOf({ ...r, node_json: row.node_json });
    return {
      graph: graphHeadOf(r),
      seq: r.seq,
      node,
      record:
        node && objects
          ? recordOf({ node_json: node.json, sort_key: r.sort_key!, created_seq: r.created_seq! })
          : null,
      nextCreated: r.next_created,
    };
  }

  /** The node as it stood just after event `seq`, or null when it did not exist yet. */
  @GenerateSql({ params: [1, 1, 1] })
  async findAt(graphId: number, nodeNo: number, seq: number): Promise<NodeRecord | null> {
    const row = await this.db
      .selectFrom('node_versions as v')
      .select(recordColumns('v'))
      .where('v.graph_id', '=', graphId)
      .where('v.node_no', '=', nodeNo)
      .where('v.valid_from', '<=', seq)
      .orderBy('v.valid_from', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? recordOf(row) : null;
  }

  /** Sequence of the event that created the node (its first version), or null for an unknown node. */
  @GenerateSql({ params: [1, 1] })
  async createdSeq(graphId: number, nodeNo: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('node_versions')
      .select('valid_from')
      .where('graph_id', '=', graphId)
      .where('node_no', '=', nodeNo)
      .orderBy('valid_from', 'asc')
      .limit(1)
      .executeTakeFirst();
    return row ? row.valid_from : null;
  }

  /** Each node as of its own sequence, in input order; null where it did not exist yet. */
  @GenerateSql({ params: [1, [{ nodeNo: 1, seq: 1 }]] })
  async findManyAt(graphId: number, items: NodeAt[]): Promise<(NodeRecord | null)[]> {
    if (items.length === 0) return [];
    const rows = await findManyAt.rows(this.db, {
      graphId,
      nodeNos: items.map((n) => n.nodeNo),
      seqs: items.map((n) => n.seq),
    });
    const out: (NodeRecord | null)[] = items.map(() => null);
    for (const r of rows) out[Number(r.i) - 1] = recordOf(r);
    return out;
  }

  /**
   * The first `limit` children of each parent as of its sequence, oldest first; at most
   * `totalLimit` rows in all (the lateral join yields each parent's rows in order, in input order,
   * so the outer LIMIT stops the scan early); within `maxBytes` (see recordLists).
   */
  @GenerateSql({ params: [1, [{ nodeNo: 1, seq: 1 }], 10, 100] })
  async childrenOf(
    graphId: number,
    parents: NodeAt[],
    limit: number,
    totalLimit: number,
    maxBytes = UNBOUNDED_BYTES,
  ): Promise<RecordLists> {
    if (parents.length === 0) return { lists: [], cutFrom: null };
    const rows = this.db
      .selectFrom(unnestNodesAt(parents))
      .crossJoinLateral((eb) =>
        eb
          .selectFrom('node_versions as v')
          .select(['v.node_no', ...recordColumns('v')])
          .select([sql.ref('v.node_no').as('pos'), VERSION_BYTES])
          .where('v.graph_id', '=', graphId)
          .whereRef('v.parent_no', '=', 'p.node_no')
          .whereRef('v.valid_from', '<=', 'p.seq')
          .where(notSuperseded(eb.ref('p.seq')))
          .orderBy('v.node_no')
          .limit(limit)
          .as('c'),
      )
      .select(['p.i', 'c.pos', 'c.size', ...recordColumnsOf('c')])
      .limit(totalLimit);
    return this.recordLists(rows, parents.length, maxBytes);
  }

  /** The first `limit` nodes under each subtree root as of its sequence, in tree order; see childrenOf. */
  @GenerateSql({ params: [1, [{ sortKey: '0001', maxDepth: 2, seq: 1 }], 10, 100] })
  async descendantsOf(
    graphId: number,
    roots: SubtreeAt[],
    limit: number,
    totalLimit: number,
    maxBytes = UNBOUNDED_BYTES,
  ): Promise<RecordLists> {
    if (roots.length === 0) return { lists: [], cutFrom: null };
    const rows = this.db
      .selectFrom(
        unnestRows<{ lo: string; hi: string; max_depth: number | null; seq: number }>({
          lo: pgArray(
            roots.map((r) => r.sortKey),
            'text',
          ),
          hi: pgArray(
            roots.map((r) => descendantsUpperBound(r.sortKey)),
            'text',
          ),
          max_depth: pgArray(
            roots.map((r) => r.maxDepth),
            'int',
          ),
          seq: pgArray(
            roots.map((r) => r.seq),
            'bigint',
          ),
        }),
      )
      .crossJoinLateral((eb) =>
        eb
          .selectFrom('node_versions as v')
          .select(recordColumns('v'))
          .select([sql.ref('v.sort_key').as('pos'), VERSION_BYTES])
          .where('v.graph_id', '=', graphId)
          // sort_key's collation ("C") is the comparison's: byte order, as the index holds it
          .whereRef('v.sort_key', '>', 'p.lo')
          .whereRef('v.sort_key', '<', 'p.hi')
          .whereRef('v.valid_from', '<=', 'p.seq')
          .where((w) =>
            w.or([w('p.max_depth', 'is', null), w('v.depth', '<=', w.ref('p.max_depth'))]),
          )
          .where(notSuperseded(eb.ref('p.seq')))
          .orderBy('v.sort_key')
          .limit(limit)
          .as('d'),
      )
      .select(['p.i', 'd.pos', 'd.size', ...recordColumnsOf('d')])
      .limit(totalLimit);
    return this.recordLists(rows, roots.length, maxBytes);
  }

  /**
   * The rows of childrenOf or descendantsOf (`i`, `pos` in list order, `size`, the record
   * columns) grouped into lists, read within `maxBytes` of the versions' JSON (see page-bytes: the
   * first row always).
   */
  private async recordLists(
    rows: { as(alias: 'b'): AliasedExpression<unknown, 'b'> },
    count: number,
    maxBytes: number,
  ): Promise<RecordLists> {
    const bounded = await boundedRows<NodeRecordColumns & { i: number }>(
      this.db,
      rows,
      {
        light: ['i', 'sort_key', 'created_seq'],
        heavy: ['node_json'],
        order: sql`b.i, b.pos`,
        size: sql`b.size`,
      },
      maxBytes,
    );
    const left = bounded.find((r) => !r.fits);
    const fitting = left ? bounded.filter((r) => r.fits) : bounded;
    return { lists: groupRecords(count, fitting), cutFrom: left ? Number(left.i) - 1 : null };
  }

  /** One page of the nodes list: an index range scan in list order, stopped by LIMIT. */
  @GenerateSql({ params: [{ graphId: 1, seq: 10, order: 'created', limit: 50 }] })
  async page(q: NodePageQuery): Promise<SizedPage<NodeRecord>> {
    const rows = await this.sized<NodeRecordColumns>(
      q,
      this.listed(q).select(recordColumns('v')),
      ['sort_key', 'created_seq'],
      ['node_json'],
    );
    return sizedPage(rows, recordOf);
  }

  /** `page`, each node as its stored JSON. */
  @GenerateSql(
    { params: [{ graphId: 1, seq: 10, order: 'created', limit: 50, maxBytes: 1_000_000 }] },
    {
      name: 'tree order, filtered',
      params: [
        {
          graphId: 1,
          seq: 10,
          subtree: { nodeNo: 1, sortKey: '0001', maxDepth: 2 },
          kind: 'agent',
          state: 'working',
          order: 'tree',
          limit: 50,
        },
      ],
    },
    {
      name: 'children',
      params: [{ graphId: 1, seq: 10, parentNo: 1, order: 'created', limit: 50 }],
    },
  )
  async pageJson(q: NodePageQuery): Promise<SizedPage<NodeJson>> {
    const rows = await this.sized<{
      node_json: string;
      node_state: string;
      node_last_event: number;
    }>(
      q,
      this.listed(q).select([
        'v.public_json as node_json',
        'v.state as node_state',
        'v.last_event as node_last_event',
      ]),
      ['node_state', 'node_last_event'],
      ['node_json'],
    );
    return sizedPage(rows, (r) => nodeJsonOf(r)!);
  }

  /**
   * A page (see paged) bounded to `maxBytes` of its versions' JSON (see page-bytes): the small
   * `columns` of `query` as they are, the `heavy` ones null on the row that tells it was cut.
   */
  private async sized<R>(
    q: NodePageQuery,
    query: ReturnType<NodeReadRepository['listed']>,
    columns: string[],
    heavy: string[],
  ): Promise<(R & { fits: boolean })[]> {
    const maxBytes = sql.val(q.maxBytes ?? UNBOUNDED_BYTES);
    const { column, direction } = this.position(q);
    const page = this.paged(
      q,
      query.select([VERSION_BYTES, sql<string | number>`${sql.ref(column)}`.as('pos')]),
    );
    const rows = await this.db
      .selectFrom(
        this.db
          .selectFrom(page.as('s'))
          .selectAll('s')
          .select(byteColumns(sql.ref('s.size'), sql.ref('s.pos'), direction))
          .as('s'),
      )
      .where(readIn(maxBytes))
      .select(columns.map((c) => sql.ref(`s.${c}`).as(c)))
      .select(heavy.map((c) => ifFits(maxBytes, c).as(c)))
      .select(fitsIn(maxBytes).as('fits'))
      .orderBy(sql.ref('s.pos'), direction)
      .execute();
    return rows as unknown as (R & { fits: boolean })[];
  }

  private position(q: NodePageQuery) {
    return {
      column: q.order === 'tree' ? 'v.sort_key' : 'v.node_no',
      direction: q.before ? ('desc' as const) : ('asc' as const),
    };
  }

  /** A list query narrowed to the page's position, in list order, stopped by LIMIT. */
  private paged<Q extends ReturnType<NodeReadRepository['listed']>>(q: NodePageQuery, query: Q): Q {
    const { column, direction } = this.position(q);
    const position = (rec: NodeRecord) => (q.order === 'tree' ? rec.sortKey : rec.no);
    let out = query;
    if (q.after) out = out.where(column as 'v.node_no', '>', position(q.after) as never) as Q;
    if (q.before) out = out.where(column as 'v.node_no', '<', position(q.before) as never) as Q;
    return out.orderBy(column as 'v.node_no', direction).limit(q.limit) as Q;
  }

  /** The node when the list `filter` describes holds it (a cursor's check), else null. */
  @GenerateSql({ params: [{ graphId: 1, seq: 10, parentNo: 1 }, 2] })
  async findInList(filter: NodeListFilter, nodeNo: number): Promise<NodeRecord | null> {
    const row = await this.listed(filter)
      .select(recordColumns('v'))
      .where('v.node_no', '=', nodeNo)
      .executeTakeFirst();
    return row ? recordOf(row) : null;
  }

  /** The versions a nodes list holds: the one place its filters are written. */
  private listed(f: NodeListFilter) {
    let query = this.db
      .selectFrom('node_versions as v')
      .where('v.graph_id', '=', f.graphId)
      .where('v.valid_from', '<=', f.seq)
      .where(notSuperseded(f.seq));
    if (f.parentNo !== undefined) query = query.where('v.parent_no', '=', f.parentNo);
    if (f.subtree) {
      const { nodeNo, sortKey, maxDepth } = f.subtree;
      query = query
        .where('v.sort_key', '>', sortKey)
        .where('v.sort_key', '<', descendantsUpperBound(sortKey))
        // descendants are created after their ancestor: bounds scans in creation order
        .where('v.node_no', '>', nodeNo);
      if (maxDepth !== null) query = query.where('v.depth', '<=', maxDepth);
    }
    if (f.kind) query = query.where('v.kind', '=', f.kind);
    if (f.state) query = query.where('v.state', '=', f.state);
    return query;
  }

  /**
   * For each graph: how many nodes, as of `seq`, are working with `since <= last_event <= until`
   * (see activeWorkingCountSql). Working nodes minus this count are the stale ones.
   */
  @GenerateSql({ params: [[{ graphId: 1, seq: 1, since: 1_000, until: 2_000 }]] })
  async countActiveWorking(
    items: { graphId: number; seq: number; since: number; until: number }[],
  ): Promise<number[]> {
    if (items.length === 0) return [];
    const rows = await countActiveWorking.rows(this.db, {
      graphIds: items.map((x) => x.graphId),
      seqs: items.map((x) => x.seq),
      since: items.map((x) => x.since),
      until: items.map((x) => x.until),
    });
    const out = items.map(() => 0);
    for (const r of rows) out[Number(r.i) - 1] = r.n;
    return out;
  }
}
