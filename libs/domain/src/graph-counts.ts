import { NodeState } from './node';

/** GraphCounts without `stale`, which is judged at read time. */
export interface StoredGraphCounts {
  nodes: number;
  sessions: number;
  agents: number;
  blocked: number;
  by_state: Record<NodeState, number>;
}

export const emptyCounts = (): StoredGraphCounts => ({
  nodes: 0,
  sessions: 0,
  agents: 0,
  blocked: 0,
  by_state: { working: 0, input_required: 0, idle: 0, completed: 0, failed: 0, canceled: 0 },
});
