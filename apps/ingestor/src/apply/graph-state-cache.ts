import type { AppliedJsonEncoder } from '@graph-history/db';
import type { ActiveWindow, GraphState } from '@graph-history/domain';

/**
 * A graph as the apply keeps it between runs: the reducer's state, its active window and the
 * encoder of its stored JSON (which keeps each node's last encoding).
 */
export interface CachedGraph {
  state: GraphState;
  /** The state's working nodes not stale yet (see GraphApplier's reduce). */
  active: ActiveWindow;
  json: AppliedJsonEncoder;
}

/**
 * Reducer states kept between apply runs, per graph, least recently used evicted first. A state
 * is handed out only when it is current (its lastSeq equals the graph's applied_seq) and is
 * REMOVED while in use, so a failed run (state possibly half-mutated) simply never puts it back.
 */
export class GraphStateCache {
  private readonly graphs = new Map<number, CachedGraph>();

  constructor(private readonly maxGraphs: number) {}

  take(graphId: number, appliedSeq: number): CachedGraph | undefined {
    const graph = this.graphs.get(graphId);
    this.graphs.delete(graphId);
    return graph && graph.state.lastSeq === appliedSeq ? graph : undefined;
  }

  put(graph: CachedGraph): void {
    const { graphId } = graph.state;
    this.graphs.delete(graphId);
    this.graphs.set(graphId, graph);
    if (this.graphs.size > this.maxGraphs) this.graphs.delete(this.graphs.keys().next().value!);
  }
}
