import type { LineRun } from '../line-adapter';
import type { NodeMemo } from '../node-emitter';
import { type OwnRecord, getOwn, setOwn } from '../own-record';
import type { RowLine } from './row-line';

/** A `task` tool call that ran a sub-agent session (its state's `metadata.sessionId`). */
export interface TaskLink {
  callerSession: string;
  callId: string;
  agentType: string;
  purpose?: string;
}

/** A task call that finished before its sub-agent session's node was made. */
export interface TaskEnd {
  caller: string;
  /** The task part's id and status: the keys its events take. */
  partId: string;
  status: string;
  call: Record<string, unknown>;
  ts: number;
}

/** One opencode session: a session, or a sub-agent's (its `parent_id` set). */
export interface SessionMemo extends NodeMemo {
  path: string;
  parentId?: string;
  directory?: string;
  createdAt?: number;
  sessionRef?: string;
  depth?: number;
  title?: string;
  /** The title last sent. */
  sentTitle?: string;
  lastText?: string;
  /** Rows read before its node could be made (its parent not read yet). */
  held: RowLine[];
}

export interface OpencodeState {
  sessions: OwnRecord<SessionMemo>;
  /** Sub-agent session id -> the task call that ran it (noted at prepare). */
  tasks: OwnRecord<TaskLink>;
  /** Row id -> what of it was applied (a message's `done`, a tool part's status). */
  applied: OwnRecord<string>;
  /** Open waits: child session id -> the waiting session id. */
  waits: OwnRecord<string>;
  /** Sub-agent session id -> its task call's end, read before the session's node was made. */
  taskEnds: OwnRecord<TaskEnd>;
}

export type Run = LineRun<OpencodeState>;

export const MAX_HELD_LINES = 2_000;

export const createOpencodeState = (): OpencodeState => ({
  sessions: {},
  tasks: {},
  applied: {},
  waits: {},
  taskEnds: {},
});

export function sessionOf(state: OpencodeState, id: string, path: string): SessionMemo {
  const found = getOwn(state.sessions, id);
  if (found) return found;
  const memo: SessionMemo = { path, lastEventAt: 0, held: [] };
  setOwn(state.sessions, id, memo);
  return memo;
}
