import type { LineRun } from '../line-adapter';
import type { NodeMemo } from '../node-emitter';
import { type OwnRecord, getOwn, setOwn } from '../own-record';
import type { TranscriptLine } from './transcript-line';

/** A `Task` call: Cursor's tool that runs a sub-agent. */
export interface TaskCall {
  callId: string;
  /** File id of the transcript that made it. */
  callerFile: string;
  prompt: string;
  agentType: string;
  background: boolean;
  /** The sub-agent it was matched to. */
  child?: string;
}

/** One transcript file: a session or a sub-agent. */
export interface TranscriptMemo extends NodeMemo {
  path: string;
  sessionRef?: string;
  depth?: number;
  lastTs?: number;
  titled?: boolean;
  /** The last thing the agent said, for its turn's end. */
  lastText?: string;
  /** Refs this node waits on (foreground sub-agents). */
  waits: string[];
  /** The node that waits on this one. */
  waiter?: string;
  /** An open question (an `AskQuestion` call) waits for the user's answer. */
  asking?: boolean;
  held: TranscriptLine[];
}

export interface CursorState {
  files: OwnRecord<TranscriptMemo>;
  /** `Task` calls by session, noted as lines are read (prepare), before any is applied. */
  tasks: OwnRecord<TaskCall[]>;
}

export type Run = LineRun<CursorState>;

export const MAX_HELD_LINES = 2_000;

export const createCursorState = (): CursorState => ({ files: {}, tasks: {} });

export function fileOf(state: CursorState, fileId: string, path: string): TranscriptMemo {
  const found = getOwn(state.files, fileId);
  if (found) return found;
  const memo: TranscriptMemo = { path, lastEventAt: 0, waits: [], held: [] };
  setOwn(state.files, fileId, memo);
  return memo;
}
