import { StoredGraphCounts } from './graph-counts';
import { NodeRecord } from './node';
import type { PublicNode } from './public/node.schema';
import { TaskItem, WaitRecord } from './records';
import type { PriceTable } from './usage/model-prices';

/**
 * Everything the reducer needs to apply the next event of one graph. The apply worker loads it
 * from the current version rows (and caches it per graph, checked against `lastSeq`); the reducer
 * mutates it in place as it applies events. Build it with `createGraphState` or
 * `graphStateFromRows`, never by hand.
 */
export interface GraphState {
  graphId: number;
  /** Sequence of the last applied event (0 before the first). */
  lastSeq: number;
  /** Stored `created` of the last applied event (0 before the first). */
  lastCreated: number;
  nodes: Map<number, NodeRecord>;
  byRef: Map<string, number>;
  /** Number of root nodes so far: the next root's position in tree order. */
  rootCount: number;
  /** Open waits, by waiting node then by node waited on. */
  openWaits: Map<number, Map<number, WaitRecord>>;
  /** Reverse index of `openWaits`: node waited on -> the nodes waiting on it. */
  waitedBy: Map<number, Set<number>>;
  /** Number of open waits (at most LIMITS.openWaits). */
  openWaitCount: number;
  /** Current task list of each node that has one. */
  tasks: Map<number, TaskItem[]>;
  counts: StoredGraphCounts;
  /**
   * Each node as presented (per-read fields blank) at the end of the last event that touched it,
   * kept from that event on: the next event takes the node's fields before it from here rather
   * than presenting it again. Empty in a state built from rows.
   */
  presented: Map<number, PublicNode>;
  /** Prices of the models, for the cost of usage (DEFAULT_PRICES unless the deployment sets its own). */
  prices: PriceTable;
}
