import { apiPath, getJson } from './http';
import type { Graph, GraphEvent, List, Node } from './types';

/**
 * Everything the viewer reads, in one small interface: the page depends on it alone, so the way
 * it reaches the API lives in this one file.
 */
export interface ShareApi {
  listGraphs(): Promise<Graph[]>;
  /** The graph now, or as of an event id or a time in ms. */
  graph(graphId: string, asOf?: string | null): Promise<Graph>;
  /** The graph when it changed since `etag` (a cheap conditional request), else null. */
  graphIfChanged(graphId: string, etag: string | null): Promise<{ graph: Graph; etag: string | null } | null>;
  /** Every node in tree order as of an event, page by page (`onPage` sees each page as it comes). */
  treeNodes(graphId: string, asOfEventId: string | null, onPage?: (nodes: Node[]) => void): Promise<Node[]>;
  /** One node with its tasks, spawns, waits and messages. */
  node(graphId: string, nodeId: string, asOf: string | null): Promise<Node>;
  /** Retained events oldest first: all, or only those after `after`. */
  events(graphId: string, after?: string | null): Promise<GraphEvent[]>;
}

const PAGE = 1_000;

async function allPages<T extends { id: string }>(
  firstUrl: string,
  onPage?: (items: T[]) => void,
): Promise<T[]> {
  const out: T[] = [];
  let url = firstUrl;
  for (;;) {
    const page = (await getJson<List<T>>(url)).body!;
    out.push(...page.data);
    onPage?.(page.data);
    const last = page.data[page.data.length - 1];
    if (!page.has_more || !last) return out;
    url = `${page.url}${page.url.includes('?') ? '&' : '?'}starting_after=${encodeURIComponent(last.id)}`;
  }
}

export const httpShareApi: ShareApi = {
  async listGraphs() {
    return allPages<Graph>(apiPath('/graphs', { limit: 100 }));
  },
  async graph(graphId, asOf) {
    return (await getJson<Graph>(apiPath(`/graphs/${graphId}`, { as_of: asOf }))).body!;
  },
  async graphIfChanged(graphId, etag) {
    const r = await getJson<Graph>(apiPath(`/graphs/${graphId}`), { etag });
    return r.body ? { graph: r.body, etag: r.etag } : null;
  },
  treeNodes(graphId, asOfEventId, onPage) {
    const url = apiPath(`/graphs/${graphId}/nodes`, { order: 'tree', limit: PAGE, as_of: asOfEventId });
    return allPages<Node>(url, onPage);
  },
  async node(graphId, nodeId, asOf) {
    const expand = ['tasks', 'spawns', 'waits', 'messages'];
    return (await getJson<Node>(apiPath(`/graphs/${graphId}/nodes/${nodeId}`, { as_of: asOf, expand }))).body!;
  },
  events(graphId, after) {
    const url = apiPath(`/graphs/${graphId}/events`, { order: 'asc', limit: PAGE, starting_after: after });
    return allPages<GraphEvent>(url);
  },
};
