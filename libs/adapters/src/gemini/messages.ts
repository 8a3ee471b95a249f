import { LIMITS, type EndState, type PayloadOf, type TaskStatus } from '@graph-history/domain';
import { type Json, isObject, str } from '../json';
import type { NodeEmitter } from '../node-emitter';
import { deleteOwn, getOwn, setOwn } from '../own-record';
import { cleanText, firstLine } from '../text';
import { toolCallsOf } from './agent-calls';
import { contentText } from './chat-line';
import type { Run } from './run';
import type { ChatMemo } from './state';

const SUMMARY_MAX = 2_000;
/** Statuses of a recorded tool call (CoreToolCallStatus): calls are recorded once completed. */
const DONE = new Set(['success', 'error', 'cancelled']);
/** write_todos statuses the graph has; `cancelled` todos are left out of the list. */
const TODO_STATUS: Record<string, TaskStatus> = {
  pending: 'pending',
  blocked: 'pending',
  in_progress: 'in_progress',
  completed: 'completed',
};

function todos(args: Json): PayloadOf<'tasks.updated'>['tasks'] {
  const list = Array.isArray(args['todos']) ? args['todos'].filter(isObject) : [];
  return list
    .filter((t) => Object.hasOwn(TODO_STATUS, String(t['status'])))
    .slice(0, LIMITS.tasks)
    .map((t) => ({
      content: cleanText(str(t['description']) ?? '', LIMITS.text),
      status: TODO_STATUS[String(t['status'])]!,
    }));
}

/** How a sub-agent's call ended: the call's status, and the terminate reason it shows. */
function agentEnd(call: Json): { state: EndState; summary?: string } {
  const display = isObject(call['resultDisplay']) ? call['resultDisplay'] : {};
  const reason = str(display['terminateReason']);
  const result = str(display['result']);
  const summary = result === undefined ? undefined : firstLine(result, SUMMARY_MAX);
  const withSummary = (state: EndState) => (summary ? { state, summary } : { state });
  if (call['status'] === 'cancelled') return withSummary('canceled');
  if (call['status'] === 'error' || (reason !== undefined && reason !== 'GOAL')) {
    return withSummary('failed');
  }
  return withSummary('completed');
}

/** A call that ran a sub-agent returned: its waiters stop waiting, and the agent ends. */
function agentReturned(run: Run, agentId: string, call: Json, emit: NodeEmitter): void {
  const chats = Object.values(run.state.chats);
  for (const waiter of chats) {
    const ref = getOwn(waiter.waits, agentId);
    if (ref === undefined) continue;
    deleteOwn(waiter.waits, agentId);
    emit.send('wait.ended', waiter, { on: [ref] });
  }
  const agent = chats.find((c) => c.sessionId === agentId && c.parentFolder !== undefined);
  if (agent) emit.send('ended', agent, agentEnd(call));
}

function toolCall(run: Run, memo: ChatMemo, call: Json, emit: NodeEmitter): void {
  const name = str(call['name']) ?? 'tool';
  const args = isObject(call['args']) ? call['args'] : {};
  const agentId = str(call['agentId']);
  if (agentId !== undefined) return agentReturned(run, agentId, call, emit);
  if (name === 'write_todos') {
    emit.send('tasks.updated', memo, { tasks: todos(args) });
    return;
  }
  if (name === 'complete_task' && memo.depth) {
    // a sub-agent's own last call; its caller's record of the agent call follows
    emit.activity(memo, 'Completing its task');
    return;
  }
  emit.activity(memo, cleanText(str(call['displayName']) ?? name, 120));
}

function firstRead(memo: ChatMemo, m: Json, emit: NodeEmitter): void {
  const text = firstLine(contentText(m['content']), SUMMARY_MAX);
  switch (m['type']) {
    case 'user':
      if (text === undefined) return;
      if (!memo.titled && !memo.depth) {
        memo.titled = emit.send('title', memo, { title: cleanText(text, LIMITS.shortText) });
      }
      emit.send('status', memo, { state: 'working', summary: text });
      return;
    case 'gemini':
      // a session's answer without tool calls ends its turn; a sub-agent ends by its caller
      if (text !== undefined && !memo.depth && toolCallsOf(m).length === 0) {
        emit.idle(memo, text);
      } else emit.activity(memo, text);
      return;
    case 'error':
      emit.activity(memo, text === undefined ? 'Error' : `Error: ${text}`);
      return;
    default:
      return;
  }
}

/** Applies a message record; a message written again (it grew) adds only its new tool calls. */
export function applyMessage(run: Run, memo: ChatMemo, m: Json, emit: NodeEmitter): void {
  const id = str(m['id']);
  if (id === undefined) return;
  const first = getOwn(memo.messages, id) === undefined;
  setOwn(memo.messages, id, 1);
  if (first) firstRead(memo, m, emit);
  let fresh = 0;
  for (const call of toolCallsOf(m)) {
    const callId = str(call['id']);
    if (callId === undefined || !DONE.has(String(call['status']))) continue;
    if (getOwn(memo.calls, callId) !== undefined) continue;
    setOwn(memo.calls, callId, 1);
    fresh += 1;
    toolCall(run, memo, call, emit);
  }
  // an answer that then called tools did not end the turn
  if (!first && fresh > 0 && !memo.depth && memo.state === 'idle') emit.status(memo, 'working');
}
