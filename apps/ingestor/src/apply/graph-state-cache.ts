import type { GraphState } from '@graph-history/domain';

/**
 * Reducer states kept between apply runs, per graph, least recently used evicted first. A state
 * is handed out only when it is current (its lastSeq equals the graph's applied_seq) and is
 * REMOVED while in use, so a failed run (state possibly half-mutated) simply never puts it back.
 */
export class GraphStateCache {
  private readonly states = new Map<number, GraphState>();

  constructor(private readonly maxGraphs: number) {}

  take(graphId: number, appliedSeq: number): GraphState | undefined {
    const state = this.states.get(graphId);
    this.states.delete(graphId);
    return state && state.lastSeq === appliedSeq ? state : undefined;
  }

  put(state: GraphState): void {
    this.states.delete(state.graphId);
    this.states.set(state.graphId, state);
    if (this.states.size > this.maxGraphs) this.states.delete(this.states.keys().next().value!);
  }
}
