/** The read API's objects, as the typed client (`@graph-history/client`) gives them. */
import type {
  Blocked,
  ExpandedNode,
  Event,
  Graph,
  Node,
  NodeState,
  TaskCounts,
} from '@graph-history/client';

export type { Blocked, Graph, Node, NodeState, TaskCounts };
/** A node's `usage`/`descendant_usage`, a graph's `usage`. */
export type Usage = NonNullable<Node['usage']>;
export type GraphEvent = Event;
/** A node with the items the node panel shows. */
export type NodeDetail = ExpandedNode<'tasks' | 'spawns' | 'waits' | 'messages'>;
