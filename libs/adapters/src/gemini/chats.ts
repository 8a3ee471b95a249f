import { LIMITS, type PayloadOf } from '@graph-history/domain';
import { NodeEmitter, pushCreation } from '../node-emitter';
import { getOwn, setOwn } from '../own-record';
import { cleanText } from '../text';
import type { ChatLine } from './chat-line';
import { parentFolderOf } from './files';
import type { Run } from './run';
import { GEMINI_SOURCE } from './source';
import type { ChatMemo } from './state';

export type RouteLine = (run: Run, memo: ChatMemo, line: ChatLine) => void;

/** Reads a chat's header line: which session it is, or which session's sub-agent. */
export function readHeader(run: Run, memo: ChatMemo, line: ChatLine, route: RouteLine): void {
  const id = line.record.value['sessionId'];
  if (memo.sessionId !== undefined || typeof id !== 'string' || id === '') return;
  memo.sessionId = id;
  memo.startTs = line.ts ?? 0;
  const folder = parentFolderOf(line.path);
  if (folder !== undefined) memo.parentFolder = folder;
  else setOwn(run.state.sessions, id, line.fileId);
  createWhenReady(run, line.fileId, route);
}

/** The node a sub-agent goes under: the chat that called it, else its session. */
function placeOf(run: Run, session: ChatMemo, agentId: string) {
  const call = getOwn(run.state.agentCalls, agentId);
  const caller = call && getOwn(run.state.chats, call.callerFile);
  const roomy =
    caller?.ref !== undefined && !caller.ended && (caller.depth ?? 0) < LIMITS.treeDepth;
  return { call, placed: roomy ? caller : session, byCall: roomy };
}

function spawnAgent(run: Run, fileId: string, memo: ChatMemo, session: ChatMemo): void {
  const agentId = memo.sessionId!;
  const { call, placed, byCall } = placeOf(run, session, agentId);
  const ref = `${session.sessionRef}/${agentId}`;
  Object.assign(memo, {
    ref,
    sessionRef: session.sessionRef,
    depth: (placed.depth ?? 0) + 1,
    version: session.version,
  });
  const payload: PayloadOf<'agent.spawned'> = {
    parent: placed.ref!,
    agent_type: cleanText(call?.agentType ?? 'subagent', LIMITS.shortText),
    purpose: cleanText(call?.purpose ?? memo.prompt ?? 'Gemini CLI sub-agent', LIMITS.text),
    // an agent tool call returns when its agent is done: the caller waits in the foreground
    background: false,
    link_method: call ? (byCall ? 'spawn_call_id' : 'inferred') : 'explicit',
    ...(call ? { spawn_call_id: cleanText(call.callId, LIMITS.shortText) } : {}),
  };
  pushCreation(
    GEMINI_SOURCE,
    run.out,
    memo as ChatMemo & { ref: string },
    { type: 'agent.spawned', payload },
    memo.startTs ?? 0,
  );
  const emit = NodeEmitter.ofLine(GEMINI_SOURCE, fileId, 0, memo.startTs ?? 0, run.out);
  if (emit.send('wait.started', placed, { on: [ref], reason: 'runs a sub-agent' })) {
    setOwn(placed.waits, agentId, ref);
  }
}

/**
 * Creates the node of a chat once it can be: a session at its header, a sub-agent once its
 * session exists and either a call names it or its chat went on past the header (its prompt then
 * says what it was asked). Then applies the lines it held meanwhile, and a session's waiting
 * sub-agents.
 */
export function createWhenReady(run: Run, fileId: string, route: RouteLine): void {
  const memo = getOwn(run.state.chats, fileId);
  if (!memo || memo.sessionId === undefined || memo.ref !== undefined) return;
  if (memo.parentFolder === undefined) {
    Object.assign(memo, { ref: memo.sessionId, sessionRef: memo.sessionId, depth: 0 });
    pushCreation(
      GEMINI_SOURCE,
      run.out,
      memo as ChatMemo & { ref: string },
      { type: 'session.started', payload: {} },
      memo.startTs ?? 0,
    );
  } else {
    if (!memo.begun && getOwn(run.state.agentCalls, memo.sessionId) === undefined) return;
    const sessionFile = getOwn(run.state.sessions, memo.parentFolder);
    const session = sessionFile === undefined ? undefined : getOwn(run.state.chats, sessionFile);
    if (session?.ref === undefined) return;
    spawnAgent(run, fileId, memo, session);
  }
  const held = memo.held;
  memo.held = [];
  for (const line of held) route(run, memo, line);
  if (memo.parentFolder !== undefined) return;
  const waiting = Object.entries(run.state.chats)
    .filter(([, c]) => c.parentFolder === memo.sessionId && c.ref === undefined)
    .sort((a, b) => (a[1].startTs ?? 0) - (b[1].startTs ?? 0));
  for (const [childFile] of waiting) createWhenReady(run, childFile, route);
}
