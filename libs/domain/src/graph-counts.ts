import { NodeState } from './node';
import { usageJson } from './usage/usage-json';
import { NO_USAGE, type PricedCounts, type Usage } from './usage/usage';

/** GraphCounts without `stale`, which is judged at read time. */
export interface StoredGraphCounts {
  nodes: number;
  sessions: number;
  agents: number;
  blocked: number;
  by_state: Record<NodeState, number>;
  /** Tokens of every node (absent on rows written before usage existed: none). */
  usage?: Usage;
}

/** Graph counts as a Graph read takes them: a Graph shows the usage's totals, not its `by_model`. */
export type ShownGraphCounts = Omit<StoredGraphCounts, 'usage'> & { usage?: PricedCounts };

export const emptyCounts = (): StoredGraphCounts => ({
  nodes: 0,
  sessions: 0,
  agents: 0,
  blocked: 0,
  by_state: { working: 0, input_required: 0, idle: 0, completed: 0, failed: 0, canceled: 0 },
  usage: NO_USAGE,
});

/** `JSON.stringify(counts)`, written out: the apply stores the counts of every event. */
export function storedCountsJson(c: StoredGraphCounts): string {
  const s = c.by_state;
  return (
    `{"nodes":${c.nodes},"sessions":${c.sessions},"agents":${c.agents},"blocked":${c.blocked},` +
    `"by_state":{"working":${s.working},"input_required":${s.input_required},"idle":${s.idle},` +
    `"completed":${s.completed},"failed":${s.failed},"canceled":${s.canceled}}` +
    (c.usage === undefined ? '}' : `,"usage":${usageJson(c.usage)}}`)
  );
}
