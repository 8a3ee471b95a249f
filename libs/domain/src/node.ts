import type { Usage } from './usage/usage';

export const NODE_STATES = [
  'working',
  'input_required',
  'idle',
  'completed',
  'failed',
  'canceled',
] as const;
export type NodeState = (typeof NODE_STATES)[number];

export const END_STATES = ['completed', 'failed', 'canceled'] as const;
export type EndState = (typeof END_STATES)[number];

export type NodeKind = 'session' | 'agent';

export const ATTENTION_REASONS = ['permission', 'question', 'error'] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

export interface Attention {
  reason: AttentionReason;
  message: string | null;
  since: number;
}

export const LINK_METHODS = ['spawn_call_id', 'explicit', 'inferred'] as const;
export type LinkMethod = (typeof LINK_METHODS)[number];

export const TASK_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface TaskCounts {
  total: number;
  pending: number;
  in_progress: number;
  completed: number;
  open: number;
}

/** `blocked` with internal node numbers; the public form carries `on_ids`. */
export interface BlockedRecord {
  onNos: number[];
  starting: number;
  nodeCount: number;
  openTasks: number;
  cycle: boolean;
}

/**
 * A node as the reducer keeps it and as a version row stores it (`rec` column). Node references
 * are internal numbers within the graph; `toPublicNode` turns it into the read API's Node
 * (`NodeSchema`).
 */
export interface NodeRecord {
  no: number;
  ref: string;
  kind: NodeKind;
  provider: string;
  parentNo: number | null;
  rootNo: number;
  sessionNo: number;
  requestedByNo: number | null;
  depth: number;
  /** Sorts nodes in depth-first pre-order, children oldest first (byte order, collation "C"). */
  sortKey: string;
  createdSeq: number;
  state: NodeState;
  attention: Attention | null;
  title: string | null;
  summary: string | null;
  headline: string | null;
  purpose: string | null;
  agentType: string | null;
  background: boolean | null;
  linkMethod: LinkMethod | null;
  spawnCallId: string | null;
  cwd: string | null;
  created: number;
  ended: number | null;
  lastEvent: number;
  childCount: number;
  descendantCount: number;
  backgroundAgentCount: number;
  taskCounts: TaskCounts;
  blocked: BlockedRecord | null;
  /** Tokens the node itself reported (`usage.reported`), null before any. Replaced, never mutated. */
  usage: Usage | null;
  /** Tokens of its whole subtree, its own included, null before any. Replaced, never mutated. */
  descendantUsage: Usage | null;
}
