import { sql } from 'kysely';
import { Db } from '@graph-history/db';
import { encodeId, encodeReadableId, type IdPrefix } from '@graph-history/domain';
import { loadIdKey } from '@graph-history/db';
import { BIG_GRAPH_KEY } from './api-seed';
import type { Target } from './wrk';

/** Distinct request targets per scenario (wrk picks one at random per request). */
export const TARGETS = 10_000;
const PAGE = 1_000;

export interface ApiTargets {
  baseline: Target[];
  nodeReads: Target[];
  graphReads: Target[];
  graphList: Target[];
  eventPages: Target[];
  descendantPages: Target[];
}

interface GraphRow {
  graph_id: number;
  graph_key: string;
  first_seq: number;
  applied_seq: number;
}

const random = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(list: T[]): T => list[random(list.length)]!;
const times = <T>(n: number, make: () => T | undefined): T[] => {
  const out: T[] = [];
  while (out.length < n) {
    const t = make();
    if (t !== undefined) out.push(t);
  }
  return out;
};
const graphPath = (key: string) => `/api/v1/graphs/gph_${key}`;
/** How the ids of a bench database are written: sealed with its key, or readable. */
export type IdEncoder = (prefix: IdPrefix, graphId: number, n: number) => string;

/**
 * The id encoder of the API serving `db`: sealed with the database's own key (loaded, so this
 * process seals with it from now on), or the readable form for a checkout older than sealed ids
 * (no `id_key` table), as `bench:api-ab` against such a checkout needs.
 */
export async function idEncoderOf(db: Db): Promise<IdEncoder> {
  try {
    await loadIdKey(db);
    return encodeId;
  } catch {
    return encodeReadableId;
  }
}

const asOfWith = (encode: IdEncoder) => (g: { graph_id: number }, seq: number) =>
  `as_of=${encode('evt', g.graph_id, seq)}`;
/** A random retained seq of the graph, at least `from` events after its first retained one. */
const retainedSeq = (g: GraphRow, from = 0) =>
  g.first_seq + from + random(g.applied_seq - g.first_seq - from + 1);

/**
 * Targets for every scenario, each read as of a random retained event where the API takes
 * `as_of`: nodes that exist at that event, full pages of 1,000, graph list pages of 100.
 */
export async function apiTargets(
  db: Db,
  graphListIds: string[],
  encode: IdEncoder = encodeId,
): Promise<ApiTargets> {
  const asOf = asOfWith(encode);
  const all = await sql<GraphRow>`
    select graph_id, graph_key, first_seq, applied_seq from graphs order by graph_id`.execute(db);
  const graphs = all.rows.filter((g) => g.graph_key !== BIG_GRAPH_KEY);
  const big = all.rows.find((g) => g.graph_key === BIG_GRAPH_KEY)!;
  const byId = new Map(all.rows.map((g) => [g.graph_id, g]));

  const versions = await sql<{ graph_id: number; node_no: number; valid_from: number }>`
    select graph_id, node_no, valid_from from node_versions
    where graph_id <> ${big.graph_id} order by random() limit ${TARGETS}`.execute(db);
  const baseline = versions.rows.map((v) => ({
    path: `/node?g=${v.graph_id}&n=${v.node_no}&v=${v.valid_from}`,
  }));

  const created = await sql<{ graph_id: number; node_no: number; created: number }>`
    select graph_id, node_no, min(valid_from)::int as created from node_versions
    where graph_id <> ${big.graph_id} group by graph_id, node_no`.execute(db);
  const nodesOf = new Map<number, { nodeNo: number; created: number }[]>();
  for (const r of created.rows) {
    const list = nodesOf.get(r.graph_id) ?? [];
    list.push({ nodeNo: r.node_no, created: r.created });
    nodesOf.set(r.graph_id, list);
  }
  const nodeReads = times(TARGETS, () => {
    const g = pick(graphs);
    const seq = retainedSeq(g);
    const existing = (nodesOf.get(g.graph_id) ?? []).filter((n) => n.created <= seq);
    if (existing.length === 0) return undefined;
    const node = encode('node', g.graph_id, pick(existing).nodeNo);
    return { path: `${graphPath(g.graph_key)}/nodes/${node}?${asOf(g, seq)}` };
  });
  const graphReads = times(TARGETS, () => {
    const g = pick(graphs);
    return { path: `${graphPath(g.graph_key)}?${asOf(g, retainedSeq(g))}` };
  });
  // The first page and the pages after each graph of it: always 100 graphs (201 exist).
  const graphList = times(TARGETS, () => {
    const i = random(graphListIds.length + 1);
    const after = i === 0 ? '' : `&starting_after=${graphListIds[i - 1]}`;
    return { path: `/api/v1/graphs?limit=100${after}` };
  });
  const longEnough = graphs.filter((g) => g.applied_seq - g.first_seq + 1 >= PAGE);
  const eventPages = times(TARGETS, () => {
    const g = pick(longEnough);
    return {
      path: `${graphPath(g.graph_key)}/events?limit=${PAGE}&expand[]=data.node&${asOf(g, retainedSeq(g, PAGE - 1))}`,
    };
  });
  return {
    baseline,
    nodeReads,
    graphReads,
    graphList,
    eventPages,
    descendantPages: await descendantPages(db, byId.get(big.graph_id)!, encode),
  };
}

/**
 * Pages of 1,000 descendants of the big graph's root in tree order, as of a random retained
 * event, starting after a random node that has at least 1,000 nodes after it at that moment.
 */
async function descendantPages(db: Db, big: GraphRow, encode: IdEncoder): Promise<Target[]> {
  const asOf = asOfWith(encode);
  const tree = await sql<{ node_no: number; created: number }>`
    select node_no, min(valid_from)::int as created from node_versions
    where graph_id = ${big.graph_id} group by node_no, sort_key order by sort_key`.execute(db);
  const [root, ...below] = tree.rows;
  const rootId = encode('node', big.graph_id, root!.node_no);
  const moments = times(100, () => retainedSeq(big)).map((seq) => ({
    seq,
    existing: below.filter((n) => n.created <= seq),
  }));
  return times(TARGETS, () => {
    const { seq, existing } = pick(moments);
    if (existing.length <= PAGE) return undefined;
    const cursor = encode('node', big.graph_id, existing[random(existing.length - PAGE)]!.node_no);
    return {
      path: `${graphPath(BIG_GRAPH_KEY)}/nodes?ancestor_id=${rootId}&order=tree&limit=${PAGE}&starting_after=${cursor}&${asOf(big, seq)}`,
    };
  });
}

/** 90% node and graph reads, 10% pages; a third of the requests revalidate with If-None-Match. */
export async function mixedTargets(
  t: ApiTargets,
  etagOf: (path: string) => Promise<string | undefined>,
): Promise<Target[]> {
  const targets = times(TARGETS, () => {
    const r = random(100);
    if (r < 45) return { ...pick(t.nodeReads) };
    if (r < 90) return { ...pick(t.graphReads) };
    return { ...pick(r < 95 ? t.eventPages : t.descendantPages) };
  });
  const revalidated = targets.filter((_, i) => i % 3 === 0);
  for (let i = 0; i < revalidated.length; i += 8)
    await Promise.all(
      revalidated.slice(i, i + 8).map(async (target) => {
        target.etag = await etagOf(target.path);
      }),
    );
  return targets;
}
