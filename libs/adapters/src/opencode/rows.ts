import type { EndState } from '@graph-history/domain';
import { type Json, isObject, str } from '../json';
import { NodeEmitter } from '../node-emitter';
import { deleteOwn, getOwn, setOwn } from '../own-record';
import { cleanText, firstLine } from '../text';
import { todoTasks } from '../todo-list';
import { reportTokens } from './message-tokens';
import type { RowLine } from './row-line';
import { OPENCODE_SOURCE } from './source';
import type { Run, SessionMemo, TaskEnd } from './state';

const SUMMARY_MAX = 2_000;

const emitterOf = (run: Run, line: RowLine, what: string) =>
  new NodeEmitter(OPENCODE_SOURCE, [line.id, what], line.ts ?? line.updated, run.out);

/** Applies what of a row was not applied yet: `what` names the row's version (`done`, a status). */
function once(run: Run, line: RowLine, what: string): boolean {
  if (getOwn(run.state.applied, line.id) === what) return false;
  setOwn(run.state.applied, line.id, what);
  return true;
}

function errorText(error: Json): string {
  const data = isObject(error['data']) ? error['data'] : {};
  return str(data['message']) ?? str(error['name']) ?? 'Error';
}

const aborted = (error: Json | string): boolean =>
  /abort|cancel|interrupt/i.test(typeof error === 'string' ? error : String(error['name']));

function messageRow(run: Run, memo: SessionMemo, line: RowLine): void {
  const info = line.data;
  const time = isObject(info['time']) ? info['time'] : {};
  if (info['role'] === 'user') {
    if (once(run, line, 'user')) emitterOf(run, line, 'user').status(memo, 'working');
    return;
  }
  if (info['role'] !== 'assistant' || time['completed'] === undefined) return;
  if (!once(run, line, 'done')) return;
  const emit = emitterOf(run, line, 'done');
  reportTokens(memo, line, emit);
  const error = isObject(info['error']) ? info['error'] : undefined;
  if (error && memo.depth) {
    emit.send('ended', memo, {
      state: aborted(error) ? 'canceled' : 'failed',
      summary: errorText(error),
    });
    return;
  }
  if (memo.depth) return; // a sub-agent ends with its task call
  const finish = str(info['finish']);
  if (error) emit.idle(memo, errorText(error));
  else if (finish !== 'tool-calls' && finish !== 'unknown')
    emit.idle(memo, memo.lastText || undefined);
}

/** How a finished task call ends its sub-agent session, and its caller's wait on it. */
function endTask(run: Run, caller: string, childId: string, end: TaskEnd, emit: NodeEmitter): void {
  const child = getOwn(run.state.sessions, childId)!;
  const waiter = getOwn(run.state.waits, childId);
  if (waiter !== undefined) {
    deleteOwn(run.state.waits, childId);
    const waiting = getOwn(run.state.sessions, waiter) ?? getOwn(run.state.sessions, caller)!;
    emit.send('wait.ended', waiting, { on: [child.ref!] });
  }
  const error = str(end.call['error']);
  const state: EndState =
    end.status === 'completed' ? 'completed' : error && aborted(error) ? 'canceled' : 'failed';
  const output = str(end.call['output']);
  const result =
    output === undefined
      ? undefined
      : /<task_result>\s*([\s\S]*?)<\/task_result>/.exec(output)?.[1];
  const summary = firstLine(result ?? error ?? '', SUMMARY_MAX);
  emit.send('ended', child, summary ? { state, summary } : { state });
}

/** A task call that finished before its session's node was made ends it once made. */
export function settleTaskEnd(run: Run, childId: string): void {
  const end = getOwn(run.state.taskEnds, childId);
  if (!end || getOwn(run.state.sessions, childId)?.ref === undefined) return;
  deleteOwn(run.state.taskEnds, childId);
  const emit = new NodeEmitter(OPENCODE_SOURCE, [end.partId, end.status], end.ts, run.out);
  endTask(run, end.caller, childId, end, emit);
}

function taskCall(run: Run, line: RowLine, status: string, call: Json, emit: NodeEmitter): void {
  const caller = line.session;
  const memo = getOwn(run.state.sessions, caller)!;
  const metadata = isObject(call['metadata']) ? call['metadata'] : {};
  const childId = str(metadata['sessionId']);
  if (childId === undefined) return;
  const child = getOwn(run.state.sessions, childId);
  if (status === 'running') {
    if (
      child?.ref !== undefined &&
      getOwn(run.state.waits, childId) === undefined &&
      emit.send('wait.started', memo, { on: [child.ref], reason: 'task' })
    ) {
      setOwn(run.state.waits, childId, caller);
    }
    return;
  }
  const end: TaskEnd = { caller, partId: line.id, status, call, ts: emit.ts };
  if (child?.ref !== undefined) endTask(run, caller, childId, end, emit);
  else setOwn(run.state.taskEnds, childId, end);
}

function toolPart(run: Run, memo: SessionMemo, line: RowLine): void {
  const call = isObject(line.data['state']) ? line.data['state'] : {};
  const status = str(call['status']) ?? 'pending';
  if (status === 'pending' || !once(run, line, status)) return;
  const emit = emitterOf(run, line, status);
  const tool = str(line.data['tool']) ?? 'tool';
  const input = isObject(call['input']) ? call['input'] : {};
  if (tool === 'task') return taskCall(run, line, status, call, emit);
  if (tool === 'question') {
    if (status === 'running') {
      const questions = Array.isArray(input['questions']) ? input['questions'] : [];
      const first = isObject(questions[0]) ? questions[0] : {};
      const message = str(first['question']) ?? 'Answer a question';
      emit.send('attention.raised', memo, {
        reason: 'question',
        message: cleanText(message, SUMMARY_MAX),
      });
    } else emit.clearAttention(memo);
    return;
  }
  if (status === 'running') return;
  if (tool === 'todowrite') {
    emit.send('tasks.updated', memo, { tasks: todoTasks(input) });
    return;
  }
  emit.activity(memo, cleanText(str(call['title']) ?? tool, 120));
}

function partRow(run: Run, memo: SessionMemo, line: RowLine): void {
  const type = line.data['type'];
  if (type === 'tool') return toolPart(run, memo, line);
  if (type !== 'text' || line.data['synthetic'] === true) return;
  const text = firstLine(str(line.data['text']) ?? '', SUMMARY_MAX);
  if (text === undefined) return;
  memo.lastText = text;
  if (once(run, line, 'text')) emitterOf(run, line, 'text').activity(memo, text);
}

/** Applies a message or part row of a created session. */
export function routeRow(run: Run, memo: SessionMemo, line: RowLine): void {
  if (line.table === 'message') messageRow(run, memo, line);
  else if (line.table === 'part') partRow(run, memo, line);
}
