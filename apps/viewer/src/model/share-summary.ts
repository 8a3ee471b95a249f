import type { Graph, Node, NodeState } from '../api/types';

/** A row of the shares index: the graph, and its first session once read (null: none). */
export interface ShareSummary {
  graph: Graph;
  session: Node | null | undefined;
}

export interface Need {
  label: string;
  state: NodeState | 'blocked';
  count: number;
}

/** What in a share needs a person: nodes asking for input, blocked, failed (none: empty). */
export function needsYou(g: Graph): Need[] {
  const needs: Need[] = [
    { label: 'input required', state: 'input_required', count: g.counts.by_state.input_required },
    { label: 'blocked', state: 'blocked', count: g.counts.blocked },
    { label: 'failed', state: 'failed', count: g.counts.by_state.failed },
  ];
  return needs.filter((n) => n.count > 0);
}
