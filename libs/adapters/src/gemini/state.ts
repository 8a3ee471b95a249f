import { type OwnRecord, getOwn, setOwn } from '../own-record';
import type { NodeMemo } from '../node-emitter';
import type { ChatLine } from './chat-line';

/** A tool call that ran a sub-agent: its record names the agent (`agentId`). */
export interface AgentCall {
  /** File id of the chat that made the call. */
  callerFile: string;
  callId: string;
  agentType: string;
  purpose?: string;
}

/** One chat file: a session (`kind: main`) or a sub-agent (`kind: subagent`). */
export interface ChatMemo extends NodeMemo {
  path: string;
  /** Set from the header line. */
  sessionId?: string;
  startTs?: number;
  /** The session folder a sub-agent's file sits in (its parent session's id). */
  parentFolder?: string;
  /** A sub-agent's chat went on past its header: its node can be made (with its first prompt). */
  begun?: boolean;
  /** A sub-agent's first user message: its purpose while no call names it. */
  prompt?: string;
  sessionRef?: string;
  depth?: number;
  lastTs?: number;
  titled?: boolean;
  /** The title last sent from Gemini's own summary. */
  title?: string;
  /** Message ids whose text was read: a message is re-written whole each time it grows. */
  messages: OwnRecord<1>;
  /** Message ids whose tokens were reported (absent in states saved before usage). */
  usage?: OwnRecord<1>;
  /** Tool call ids already applied. */
  calls: OwnRecord<1>;
  /** Sub-agents this chat waits on (an agent tool runs in the foreground): agent id -> ref. */
  waits: OwnRecord<string>;
  /** Lines read before the node could be created (its session's file not read yet). */
  held: ChatLine[];
}

export interface GeminiState {
  chats: OwnRecord<ChatMemo>;
  /** Sub-agent id -> the call that ran it, as soon as any line names it (prepare time). */
  agentCalls: OwnRecord<AgentCall>;
  /** Session id -> file id of its main chat. */
  sessions: OwnRecord<string>;
}

export const MAX_HELD_LINES = 2_000;

export function createGeminiState(): GeminiState {
  return { chats: {}, agentCalls: {}, sessions: {} };
}

export function chatOf(state: GeminiState, fileId: string, path: string): ChatMemo {
  const found = getOwn(state.chats, fileId);
  if (found) return found;
  const memo: ChatMemo = { path, lastEventAt: 0, messages: {}, calls: {}, waits: {}, held: [] };
  setOwn(state.chats, fileId, memo);
  return memo;
}
