import { LIMITS, type PayloadOf } from '@graph-history/domain';
import { NodeEmitter, pushCreation } from '../node-emitter';
import { getOwn } from '../own-record';
import { cleanText, firstLine } from '../text';
import { idsOf } from './files';
import { CURSOR_SOURCE } from './source';
import type { Run, TranscriptMemo } from './state';
import { matchTaskCall } from './task-calls';
import { type TranscriptLine, userText } from './transcript-line';

const PURPOSE_MAX = 2_000;

type Created = TranscriptMemo & { ref: string };

export function createSession(run: Run, memo: TranscriptMemo, line: TranscriptLine): void {
  const id = idsOf(line.fileId).session;
  Object.assign(memo, { ref: id, sessionRef: id, depth: 0 });
  pushCreation(
    CURSOR_SOURCE,
    run.out,
    memo as Created,
    { type: 'session.started', payload: {} },
    line.ts ?? 0,
  );
}

/**
 * Creates a sub-agent at its first line, under the session whose folder holds it, or under the
 * transcript whose `Task` call asked for it (matched by its prompt: Cursor writes no link).
 */
export function createAgent(
  run: Run,
  memo: TranscriptMemo,
  session: Created,
  line: TranscriptLine,
): void {
  const { session: sessionId, child } = idsOf(line.fileId);
  const words = line.role === 'user' ? userText(line.blocks) : '';
  const call = matchTaskCall(run.state, sessionId, child!, words);
  const caller = call && getOwn(run.state.files, call.callerFile);
  const roomy =
    caller?.ref !== undefined && !caller.ended && (caller.depth ?? 0) < LIMITS.treeDepth;
  const placed = (roomy ? caller : session) as Created;
  const ref = `${sessionId}/${child!}`;
  Object.assign(memo, { ref, sessionRef: sessionId, depth: (placed.depth ?? 0) + 1 });
  const purpose = firstLine(call?.prompt ?? words, PURPOSE_MAX) ?? 'Cursor sub-agent';
  const payload: PayloadOf<'agent.spawned'> = {
    parent: placed.ref,
    agent_type: cleanText(call?.agentType ?? 'subagent', LIMITS.shortText),
    purpose,
    background: call?.background ?? false,
    link_method: call ? 'inferred' : 'explicit',
    ...(call ? { spawn_call_id: cleanText(call.callId, LIMITS.shortText) } : {}),
  };
  const ts = line.ts ?? 0;
  pushCreation(CURSOR_SOURCE, run.out, memo as Created, { type: 'agent.spawned', payload }, ts);
  if (!call || call.background) return;
  // a foreground Task call returns when its sub-agent is done: the caller waits on it
  const emit = NodeEmitter.ofLine(CURSOR_SOURCE, line.fileId, 0, ts, run.out);
  if (emit.send('wait.started', placed, { on: [ref], reason: 'runs a sub-agent' })) {
    placed.waits.push(ref);
    memo.waiter = roomy ? call.callerFile : sessionId;
  }
}
