/**
 * Public ids are opaque strings that decode to internal keys: `node_…` and `evt_…` carry the
 * graph's internal id and the node number / event sequence, so a lookup needs no id index and an
 * id of another graph is recognised without a query.
 */
export type IdPrefix = 'node' | 'evt';

const B36 = /^[0-9a-z]+$/;

export function encodeId(prefix: IdPrefix, graphId: number, n: number): string {
  const g = graphId.toString(36);
  return `${prefix}_${g.length.toString(36)}${g}${n.toString(36).padStart(4, '0')}`;
}

export interface DecodedId {
  graphId: number;
  n: number;
}

export function decodeId(prefix: IdPrefix, id: string): DecodedId | null {
  if (typeof id !== 'string' || id.length > 40 || !id.startsWith(`${prefix}_`)) return null;
  const body = id.slice(prefix.length + 1);
  if (!B36.test(body)) return null;
  const glen = parseInt(body[0]!, 36);
  const g = body.slice(1, 1 + glen);
  const n = body.slice(1 + glen);
  if (g.length !== glen || glen === 0 || n.length < 4) return null;
  if (n.length > 4 && n.startsWith('0')) return null;
  const graphId = parseInt(g, 36);
  const num = parseInt(n, 36);
  if (!Number.isSafeInteger(graphId) || !Number.isSafeInteger(num) || graphId < 1 || num < 1)
    return null;
  if (encodeId(prefix, graphId, num) !== id) return null;
  return { graphId, n: num };
}

/**
 * The node ids of the graph encoded last, by node number: the reducer and the read API's bodies
 * encode the same few ids of one graph over and over (parent, root, session, blocked on).
 */
const nodeIds = { graphId: 0, ids: new Map<number, string>() };
const NODE_IDS_KEPT = 100_000;

export function nodeId(graphId: number, nodeNo: number): string {
  if (nodeIds.graphId !== graphId || nodeIds.ids.size >= NODE_IDS_KEPT) {
    nodeIds.graphId = graphId;
    nodeIds.ids = new Map();
  }
  let id = nodeIds.ids.get(nodeNo);
  if (id === undefined) nodeIds.ids.set(nodeNo, (id = encodeId('node', graphId, nodeNo)));
  return id;
}
export const eventId = (graphId: number, seq: number): string => encodeId('evt', graphId, seq);

export const GRAPH_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const isGraphKey = (key: string): boolean => GRAPH_KEY_PATTERN.test(key);

export const graphPublicId = (graphKey: string): string => `gph_${graphKey}`;

/** `gph_<key>` -> key, or null when the id is not a graph id. */
export function graphKeyFromId(id: string): string | null {
  if (typeof id !== 'string' || !id.startsWith('gph_')) return null;
  const key = id.slice(4);
  return isGraphKey(key) ? key : null;
}

/** The node number of a node id this code encoded (stored JSON): no checks, see decodeId. */
export function nodeNoOf(id: string): number {
  // `node_`, the graph part's length (one base-36 digit), the graph part, the number
  return parseInt(id.slice(6 + parseInt(id[5]!, 36)), 36);
}
