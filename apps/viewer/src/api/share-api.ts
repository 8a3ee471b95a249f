import type { GraphHistory } from '@graph-history/client';
import { streamEvents, type FollowItem } from './event-stream';
import {
  NODE_DETAIL_EXPANSIONS,
  type Graph,
  type GraphEvent,
  type Node,
  type NodeDetail,
} from './types';

/**
 * Everything the viewer reads, in one small interface over the typed client: the page depends on
 * this alone.
 */
export interface ShareApi {
  listGraphs(): Promise<Graph[]>;
  /** A share's first session now (its title and provider name the share), or null. */
  rootSession(graphId: string): Promise<Node | null>;
  /** The graph now, or as of an event id or a time in ms. */
  graph(graphId: string, asOf?: string | null): Promise<Graph>;
  /**
   * Every node in tree order at a moment (now when null), page by page (`onPage` sees each page
   * as it comes), and the event they are as of.
   */
  treeNodes(
    graphId: string,
    asOf: string | null,
    onPage?: (nodes: Node[]) => void,
  ): Promise<NodesAt>;
  /** One node with its tasks, spawns, waits and messages. */
  node(graphId: string, nodeId: string, asOf: string | null): Promise<NodeDetail>;
  /** All retained events, oldest first. */
  events(graphId: string): Promise<GraphEvent[]>;
  /**
   * Each new event after `after`, in order, until `signal` aborts: from the event stream, with
   * conditional polls (~1 s apart) only while the stream keeps failing.
   */
  follow(graphId: string, after: string | null, signal: AbortSignal): AsyncIterable<FollowItem>;
}

export interface NodesAt {
  nodes: Node[];
  asOfEventId: string | null;
}

const PAGE = 1_000;
/** A small first page, so the first rows paint before a big graph has arrived. */
const FIRST_PAGE = 100;
/** Polls of an idle share (when the stream fails) at most this far apart. */
const FOLLOW_MAX_INTERVAL_MS = 1_000;

/** A moment for the client: an event id, or a time in ms given as digits. */
const moment = (asOf: string | null | undefined) =>
  asOf == null ? undefined : /^\d+$/.test(asOf) ? Number(asOf) : asOf;

export function clientShareApi(
  client: GraphHistory,
  onConnection: (reached: boolean) => void,
): ShareApi {
  return {
    listGraphs: () => client.graphs.list({ limit: 100 }).toArray({ limit: 1_000 }),
    rootSession: async (graphId) =>
      (await client.nodes.list(graphId, { kind: 'session', limit: 1 })).data[0] ?? null,
    graph: (graphId, asOf) => client.graphs.retrieve(graphId, { asOf: moment(asOf) }),
    async treeNodes(graphId, asOf, onPage) {
      const first = await client.nodes.list(graphId, {
        order: 'tree',
        limit: FIRST_PAGE,
        asOf: moment(asOf),
      });
      const nodes: Node[] = first.data.slice();
      onPage?.(first.data);
      const last = nodes[nodes.length - 1];
      if (first.has_more && last) {
        const rest = client.nodes.list(graphId, {
          order: 'tree',
          limit: PAGE,
          asOf: first.as_of_event_id ?? undefined,
          startingAfter: last.id,
        });
        let page: Node[] = [];
        for await (const n of rest) {
          nodes.push(n);
          page.push(n);
          if (page.length === PAGE) {
            onPage?.(page);
            page = [];
          }
        }
        if (page.length) onPage?.(page);
      }
      return { nodes, asOfEventId: first.as_of_event_id };
    },
    node: (graphId, nodeId, asOf) =>
      client.nodes.retrieve(graphId, nodeId, {
        asOf: moment(asOf),
        expand: [...NODE_DETAIL_EXPANSIONS],
      }),
    events: (graphId) =>
      client.events.list(graphId, { order: 'asc', limit: PAGE }).toArray({ limit: 10_000 }),
    follow: (graphId, after, signal) =>
      streamEvents(
        graphId,
        after,
        signal,
        (from, spell) =>
          client.events.poll(graphId, {
            after: from,
            signal: spell,
            pageSize: PAGE,
            maxIntervalMs: FOLLOW_MAX_INTERVAL_MS,
          }),
        onConnection,
      ),
  };
}
