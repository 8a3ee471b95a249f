import { emptyCounts, StoredGraphCounts } from '../graph-counts';
import { GraphState } from '../graph-state';
import { NodeRecord } from '../node';
import { TaskItem, WaitRecord } from '../records';
import { copyNodeRecord } from './copy-node-record';
import { addOpenWait } from './wait-index';
import { DEFAULT_PRICES, type PriceTable } from '../usage/model-prices';

export const createGraphState = (
  graphId: number,
  prices: PriceTable = DEFAULT_PRICES,
): GraphState => ({
  graphId,
  lastSeq: 0,
  lastCreated: 0,
  nodes: new Map(),
  byRef: new Map(),
  rootCount: 0,
  openWaits: new Map(),
  waitedBy: new Map(),
  openWaitCount: 0,
  tasks: new Map(),
  counts: emptyCounts(),
  presented: new Map(),
  prices,
});

/** The current rows of one graph, as the apply worker loads them. */
export interface GraphStateRows {
  graphId: number;
  lastSeq: number;
  lastCreated: number;
  counts: StoredGraphCounts;
  /** The newest version of every node. */
  nodes: NodeRecord[];
  /** Waits whose `endedSeq` is null. */
  openWaits: WaitRecord[];
  /** The newest task snapshot of every node that has one. */
  tasks: { nodeNo: number; tasks: TaskItem[] }[];
  /** The model prices to apply its next events with (default DEFAULT_PRICES). */
  prices?: PriceTable;
}

/** Rebuilds a state from rows; the rows are copied, never kept. */
export function graphStateFromRows(rows: GraphStateRows): GraphState {
  const state = createGraphState(rows.graphId, rows.prices);
  state.lastSeq = rows.lastSeq;
  state.lastCreated = rows.lastCreated;
  state.counts = { ...rows.counts, by_state: { ...rows.counts.by_state } };
  for (const node of rows.nodes) {
    state.nodes.set(node.no, copyNodeRecord(node));
    state.byRef.set(node.ref, node.no);
    if (node.parentNo === null) state.rootCount++;
  }
  for (const wait of rows.openWaits) addOpenWait(state, { ...wait });
  for (const { nodeNo, tasks } of rows.tasks)
    state.tasks.set(
      nodeNo,
      tasks.map((t) => ({ ...t })),
    );
  return state;
}
