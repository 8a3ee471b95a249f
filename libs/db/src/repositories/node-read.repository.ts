import {
  descendantsUpperBound,
  type NodeKind,
  type NodeRecord,
  type NodeState,
} from '@graph-history/domain';
import { sql } from 'kysely';
import { Db } from '../connection';
import { PreparedStatement } from '../prepared-statement';
import { GraphRowColumns, GraphRow, toGraphRow } from './graph-read.repository';
import { activeWorkingCountSql, notSuperseded } from './node-version-sql';
import { groupByOrdinal } from './ordinal-groups';

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
}

const groupRecords = (count: number, rows: { i: number; rec: NodeRecord }[]) =>
  groupByOrdinal(count, rows, (r) => r.rec);

const nodeWithGraph = new PreparedStatement<
  Omit<GraphRowColumns, 'counts'> & {
    seq: number;
    rec: NodeRecord | null;
    next_created: number | null;
  }
>(
  'gh_node_with_graph',
  `select g.graph_id, g.graph_key, g.account_id, g.source, g.created, g.applied_seq, g.first_seq, g.last_event,
    least(coalesce($3::bigint, g.applied_seq), g.applied_seq) as seq,
    (select v.rec from node_versions v
      where v.graph_id = g.graph_id and v.node_no = $2
        and v.valid_from <= least(coalesce($3::bigint, g.applied_seq), g.applied_seq)
      order by v.valid_from desc limit 1) as rec,
    (select e.created from events e
      where e.graph_id = g.graph_id and e.seq = least(coalesce($3::bigint, g.applied_seq), g.applied_seq) + 1) as next_created
  from graph_directory d join graphs g on g.graph_id = d.graph_id
  where d.graph_key = $1`,
);

const activeWorking = new PreparedStatement<{ i: number; n: number }>(
  'gh_active_working',
  `select p.i, ${activeWorkingCountSql({ graphId: 'p.graph_id', seq: 'p.seq', since: 'p.since', until: 'p.until' })} as n
  from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[])
    with ordinality as p(graph_id, seq, since, until, i)`,
);

const nodesAt = new PreparedStatement<{ i: number; rec: NodeRecord }>(
  'gh_nodes_at',
  `select p.i, x.rec
  from unnest($2::int[], $3::bigint[]) with ordinality as p(node_no, seq, i)
  cross join lateral (
    select v.rec from node_versions v
    where v.graph_id = $1 and v.node_no = p.node_no and v.valid_from <= p.seq
    order by v.valid_from desc limit 1
  ) x`,
);

/** A node read's one round trip: the graph, the node as of the moment, the next event's time. */
export interface NodeWithGraph {
  graph: GraphRow;
  /** The event read at: the one asked for, or the newest when none was given or it is later. */
  seq: number;
  /** The node as of `seq`; null when it did not exist. */
  rec: NodeRecord | null;
  /** `created` of the event after the moment; null when the moment is the newest event. */
  nextCreated: number | null;
}

/** Node version rows read as of an event: single nodes, lists and batched expansions. */
export class NodeReadRepository {
  constructor(private readonly db: Db) {}

  /**
   * The hot path of node reads in one prepared statement: graph by key, the node's version as of
   * `seq` or the newest event, and the next event's `created`; each an index lookup.
   */
  async findWithGraph(
    graphKey: string,
    nodeNo: number,
    seq: number | null,
  ): Promise<NodeWithGraph | null> {
    const [row] = await nodeWithGraph.rows(this.db, [graphKey, nodeNo, seq]);
    return row
      ? {
          graph: toGraphRow({ ...row, counts: null }),
          seq: row.seq,
          rec: row.rec,
          nextCreated: row.next_created,
        }
      : null;
  }

  /** The node as it stood just after event `seq`, or null when it did not exist yet. */
  async findAt(graphId: number, nodeNo: number, seq: number): Promise<NodeRecord | null> {
    const row = await this.db
      .selectFrom('node_versions')
      .select('rec')
      .where('graph_id', '=', graphId)
      .where('node_no', '=', nodeNo)
      .where('valid_from', '<=', seq)
      .orderBy('valid_from', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? row.rec : null;
  }

  /** Sequence of the event that created the node (its first version), or null for an unknown node. */
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
  async findManyAt(graphId: number, items: NodeAt[]): Promise<(NodeRecord | null)[]> {
    if (items.length === 0) return [];
    const rows = await nodesAt.rows(this.db, [
      graphId,
      items.map((n) => n.nodeNo),
      items.map((n) => n.seq),
    ]);
    const out: (NodeRecord | null)[] = items.map(() => null);
    for (const r of rows) out[Number(r.i) - 1] = r.rec;
    return out;
  }

  /**
   * The first `limit` children of each parent as of its sequence, oldest first; at most
   * `totalLimit` rows in all (the lateral join yields each parent's rows in order, in input order,
   * so the outer LIMIT stops the scan early).
   */
  async childrenOf(
    graphId: number,
    parents: NodeAt[],
    limit: number,
    totalLimit: number,
  ): Promise<NodeRecord[][]> {
    if (parents.length === 0) return [];
    const { rows } = await sql<{ i: number; rec: NodeRecord }>`
      select p.i, c.rec
      from unnest(${parents.map((n) => n.nodeNo)}::int[], ${parents.map((n) => n.seq)}::bigint[])
        with ordinality as p(parent_no, seq, i)
      cross join lateral (
        select v.node_no, v.rec from node_versions v
        where v.graph_id = ${graphId} and v.parent_no = p.parent_no and v.valid_from <= p.seq
          and ${notSuperseded(sql.ref('p.seq'))}
        order by v.node_no limit ${limit}
      ) c
      limit ${totalLimit}`.execute(this.db);
    return groupRecords(parents.length, rows);
  }

  /** The first `limit` nodes under each subtree root as of its sequence, in tree order; see childrenOf. */
  async descendantsOf(
    graphId: number,
    roots: SubtreeAt[],
    limit: number,
    totalLimit: number,
  ): Promise<NodeRecord[][]> {
    if (roots.length === 0) return [];
    const { rows } = await sql<{ i: number; rec: NodeRecord }>`
      select p.i, d.rec
      from unnest(
          ${roots.map((r) => r.sortKey)}::text[],
          ${roots.map((r) => descendantsUpperBound(r.sortKey))}::text[],
          ${roots.map((r) => r.maxDepth)}::int[],
          ${roots.map((r) => r.seq)}::bigint[]
        ) with ordinality as p(lo, hi, max_depth, seq, i)
      cross join lateral (
        select v.sort_key, v.rec from node_versions v
        where v.graph_id = ${graphId}
          and v.sort_key > p.lo collate "C" and v.sort_key < p.hi collate "C"
          and v.valid_from <= p.seq
          and (p.max_depth is null or v.depth <= p.max_depth)
          and ${notSuperseded(sql.ref('p.seq'))}
        order by v.sort_key limit ${limit}
      ) d
      limit ${totalLimit}`.execute(this.db);
    return groupRecords(roots.length, rows);
  }

  /** One page of the nodes list: an index range scan in list order, stopped by LIMIT. */
  async page(q: NodePageQuery): Promise<NodeRecord[]> {
    const column = q.order === 'tree' ? 'v.sort_key' : 'v.node_no';
    const position = (rec: NodeRecord) => (q.order === 'tree' ? rec.sortKey : rec.no);
    let query = this.listed(q);
    if (q.after) query = query.where(column, '>', position(q.after));
    if (q.before) query = query.where(column, '<', position(q.before));
    const rows = await query
      .orderBy(column, q.before ? 'desc' : 'asc')
      .limit(q.limit)
      .execute();
    return rows.map((r) => r.rec);
  }

  /** The node when the list `filter` describes holds it (a cursor's check), else null. */
  async findInList(filter: NodeListFilter, nodeNo: number): Promise<NodeRecord | null> {
    const row = await this.listed(filter).where('v.node_no', '=', nodeNo).executeTakeFirst();
    return row ? row.rec : null;
  }

  /** The versions a nodes list holds: the one place its filters are written. */
  private listed(f: NodeListFilter) {
    let query = this.db
      .selectFrom('node_versions as v')
      .select('v.rec')
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
  async countActiveWorking(
    items: { graphId: number; seq: number; since: number; until: number }[],
  ): Promise<number[]> {
    if (items.length === 0) return [];
    const rows = await activeWorking.rows(this.db, [
      items.map((x) => x.graphId),
      items.map((x) => x.seq),
      items.map((x) => x.since),
      items.map((x) => x.until),
    ]);
    const out = items.map(() => 0);
    for (const r of rows) out[Number(r.i) - 1] = r.n;
    return out;
  }
}
