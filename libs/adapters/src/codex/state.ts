import type { NodeState } from '@graph-history/domain';
import { type OwnRecord, getOwn, setOwn } from '../own-record';
import type { RolloutLine } from './rollout-line';

/** What a thread's own `session_meta` says (codex-rs/protocol SessionMeta). */
export interface ThreadMeta {
  ts: number;
  cwd?: string;
  /** `source.subagent.thread_spawn.parent_thread_id`: the thread is a sub-agent of it. */
  parentId?: string;
  nickname?: string;
  role?: string;
  /** The parent's spawn call, when the rollout names it (or a fork's history reveals it). */
  spawnCallId?: string;
  /** A fork's first own line (`subagent_history_start_ordinal`): the lines before are a copy. */
  ownFrom?: number;
}

/** A `spawn_agent` call of a thread. */
export interface SpawnCall {
  ts: number;
  purpose?: string;
  agentType?: string;
  /** The thread it made, once its output (or the child's link) says so. */
  childId?: string;
}

/** Cumulative tokens of a thread as its last `token_count` gave them. */
export interface TokenTotals {
  /** Input tokens, cached ones included. */
  input: number;
  cached: number;
  output: number;
}

/** One rollout file: one Codex thread, a session or a sub-agent. */
export interface ThreadMemo {
  path: string;
  lastTs?: number;
  version?: string;
  meta?: ThreadMeta;
  /** Node ref once created (session: the thread id; agent: `<session ref>/<thread id>`). */
  ref?: string;
  sessionRef?: string;
  depth?: number;
  /** A fork's copy of its parent's history: `on` while the copied lines are read. */
  replay?: 'on' | 'done';
  ended?: boolean;
  state?: NodeState;
  attention?: boolean;
  titled?: boolean;
  /** The last user prompt: the same prompt written twice (event and item) puts it to work once. */
  prompt?: string;
  lastEventAt: number;
  spawns: OwnRecord<SpawnCall>;
  /** Open `wait_agent` calls: the refs they wait on. */
  waits: OwnRecord<string[]>;
  /** Model of the current turn (its `turn_context`). */
  model?: string;
  /** Totals of the last `token_count`: usage is reported as the difference to them. */
  tokenTotals?: TokenTotals;
  /** Lines read before the node could be created (its parent not read yet). */
  held: RolloutLine[];
}

export interface CodexState {
  threads: OwnRecord<ThreadMemo>;
  /** Counts of line types the adapter does not use. */
  skipped?: OwnRecord<number>;
}

/** Lines a thread may hold while it waits for its parent; beyond them they are dropped. */
export const MAX_HELD_LINES = 2_000;

export function createCodexState(): CodexState {
  return { threads: {} };
}

export function threadOf(state: CodexState, id: string, path: string): ThreadMemo {
  const found = getOwn(state.threads, id);
  if (found) return found;
  const memo: ThreadMemo = { path, lastEventAt: 0, spawns: {}, waits: {}, held: [] };
  setOwn(state.threads, id, memo);
  return memo;
}

export function countSkipped(state: CodexState, type: string): void {
  state.skipped ??= {};
  setOwn(state.skipped, type, (getOwn(state.skipped, type) ?? 0) + 1);
}
