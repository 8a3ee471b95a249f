import { GraphState } from '../graph-state';
import { GraphStateRows } from '../reducer';

const sortedEntries = <K extends number | string, V>(map: Map<K, V>) =>
  [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** A plain, order-independent copy of a state, for deep equality. */
export function snapshotState(state: GraphState): unknown {
  return JSON.parse(
    JSON.stringify({
      graphId: state.graphId,
      lastSeq: state.lastSeq,
      lastCreated: state.lastCreated,
      rootCount: state.rootCount,
      counts: state.counts,
      nodes: sortedEntries(state.nodes),
      byRef: sortedEntries(state.byRef),
      openWaits: sortedEntries(state.openWaits).map(([no, m]) => [no, sortedEntries(m)]),
      waitedBy: sortedEntries(state.waitedBy).map(([no, s]) => [no, [...s].sort((a, b) => a - b)]),
      openWaitCount: state.openWaitCount,
      tasks: sortedEntries(state.tasks),
    }),
  );
}

/** The rows the apply worker would load for this state, round-tripped through JSON like jsonb. */
export function rowsOf(state: GraphState): GraphStateRows {
  return JSON.parse(
    JSON.stringify({
      graphId: state.graphId,
      lastSeq: state.lastSeq,
      lastCreated: state.lastCreated,
      counts: state.counts,
      nodes: [...state.nodes.values()],
      openWaits: [...state.openWaits.values()].flatMap((m) => [...m.values()]),
      tasks: [...state.tasks.entries()].map(([nodeNo, tasks]) => ({ nodeNo, tasks })),
    }),
  );
}
