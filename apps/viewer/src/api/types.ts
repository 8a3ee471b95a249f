/** The read API's objects, as the typed client (`@graph-history/client`) gives them. */
import type {
  Blocked,
  ExpandedNode,
  Event,
  Graph,
  Node,
  NodeState,
  TaskCounts,
  Usage,
  UsageTotals,
} from '@graph-history/client';

export type { Blocked, Graph, Node, NodeState, TaskCounts, Usage, UsageTotals };
export type GraphEvent = Event;
/** The expansions of a node the node panel shows: its items. */
export const NODE_DETAIL_EXPANSIONS = ['tasks', 'spawns', 'waits', 'messages'] as const;
/** A node with the items the node panel shows. */
export type NodeDetail = ExpandedNode<(typeof NODE_DETAIL_EXPANSIONS)[number]>;
