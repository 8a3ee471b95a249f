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
} from '@graph-history/client';

export type { Blocked, Graph, Node, NodeState, TaskCounts, Usage };
export type GraphEvent = Event;
/** A node with the items the node panel shows. */
export type NodeDetail = ExpandedNode<'tasks' | 'spawns' | 'waits' | 'messages'>;
