import { LIMITS, type EndState } from '@graph-history/domain';
import { type Json, isObject, str } from '../json';
import { NodeEmitter } from '../node-emitter';
import { getOwn } from '../own-record';
import { cleanText, firstLine } from '../text';
import { todoTasks } from '../todo-list';
import { idsOf } from './files';
import { createAgent, createSession } from './nodes';
import { CURSOR_SOURCE } from './source';
import { MAX_HELD_LINES, type Run, type TranscriptMemo, fileOf } from './state';
import { type TranscriptLine, textOf, userText } from './transcript-line';

const SUMMARY_MAX = 2_000;
const QUESTION_TOOLS = new Set(['AskQuestion', 'ask_question', 'AskUserQuestion']);
const TODO_TOOLS = new Set(['TodoWrite', 'todo_write']);

function endStateOf(status: string): EndState {
  if (/abort|cancel|interrupt/i.test(status)) return 'canceled';
  if (/error|fail/i.test(status)) return 'failed';
  return 'completed';
}

function questionOf(input: Json): string {
  const questions = input['questions'];
  const first = Array.isArray(questions) && isObject(questions[0]) ? questions[0] : input;
  return (
    str(first['question']) ?? str(first['prompt']) ?? str(input['title']) ?? 'Answer a question'
  );
}

function toolUse(memo: TranscriptMemo, block: Json, emit: NodeEmitter): void {
  const name = str(block['name']) ?? 'tool';
  const input = isObject(block['input']) ? block['input'] : {};
  if (QUESTION_TOOLS.has(name)) {
    emit.send('attention.raised', memo, {
      reason: 'question',
      message: cleanText(questionOf(input), SUMMARY_MAX),
    });
    return;
  }
  if (TODO_TOOLS.has(name)) {
    emit.send('tasks.updated', memo, { tasks: todoTasks(input) });
    return;
  }
  emit.activity(memo, cleanText(name, 120));
}

/** The waiter of a sub-agent that stopped stops waiting on it. */
function releaseWaiter(run: Run, memo: TranscriptMemo, emit: NodeEmitter): void {
  const waiter = memo.waiter === undefined ? undefined : getOwn(run.state.files, memo.waiter);
  if (!waiter || memo.ref === undefined || !waiter.waits.includes(memo.ref)) return;
  waiter.waits = waiter.waits.filter((r) => r !== memo.ref);
  emit.send('wait.ended', waiter, { on: [memo.ref] });
}

function turnEnded(run: Run, memo: TranscriptMemo, status: string, emit: NodeEmitter): void {
  emit.clearAttention(memo);
  const summary = memo.lastText;
  const withSummary = summary === undefined ? {} : { summary };
  if (memo.depth) {
    emit.send('ended', memo, { state: endStateOf(status), ...withSummary });
    releaseWaiter(run, memo, emit);
    return;
  }
  if (memo.waits.length > 0) {
    emit.send('wait.ended', memo, { on: memo.waits.slice(0, LIMITS.refsPerWait) });
    memo.waits = [];
  }
  emit.idle(memo, summary);
}

/** Applies one line of a created node. */
function route(run: Run, memo: TranscriptMemo, line: TranscriptLine): void {
  const emit = NodeEmitter.ofLine(CURSOR_SOURCE, line.fileId, line.lineNo, line.ts ?? 0, run.out);
  if (line.turnEnded !== undefined) return turnEnded(run, memo, line.turnEnded, emit);
  if (line.role === 'user') {
    emit.clearAttention(memo);
    const text = firstLine(userText(line.blocks), SUMMARY_MAX);
    if (text === undefined) return emit.activity(memo);
    if (!memo.titled && !memo.depth) {
      memo.titled = emit.send('title', memo, { title: cleanText(text, LIMITS.shortText) });
    }
    emit.send('status', memo, { state: 'working', summary: text });
    return;
  }
  const text = firstLine(textOf(line.blocks), SUMMARY_MAX);
  if (text !== undefined) memo.lastText = text;
  const tools = line.blocks.filter((b) => b['type'] === 'tool_use');
  if (tools.length === 0) emit.activity(memo, text);
  for (const block of tools) toolUse(memo, block, emit);
}

/** Creates a node at its first line applied; a sub-agent waits for its session. */
function create(run: Run, memo: TranscriptMemo, line: TranscriptLine): boolean {
  const { session, child } = idsOf(line.fileId);
  if (child === undefined) {
    createSession(run, memo, line);
    return true;
  }
  const root = getOwn(run.state.files, session);
  if (root?.ref === undefined) return false;
  createAgent(run, memo, root as TranscriptMemo & { ref: string }, line);
  return true;
}

function applyHeld(run: Run, memo: TranscriptMemo): void {
  const [first, ...rest] = memo.held;
  memo.held = [];
  if (!first || !create(run, memo, first)) return;
  for (const line of [first, ...rest]) route(run, memo, line);
}

/** Applies one transcript line in timeline order. */
export function applyLine(run: Run, line: TranscriptLine): void {
  const memo = fileOf(run.state, line.fileId, line.path);
  if (memo.ref === undefined && !create(run, memo, line)) {
    if (memo.held.length < MAX_HELD_LINES) memo.held.push(line);
    return;
  }
  route(run, memo, line);
  if (idsOf(line.fileId).child !== undefined || memo.ref === undefined) return;
  // a session just made: its sub-agents read before it go under it now
  for (const [id, other] of Object.entries(run.state.files)) {
    if (other.ref === undefined && other.held.length > 0 && idsOf(id).session === line.fileId) {
      applyHeld(run, other);
    }
  }
}

/** Sub-agents still not created at the end of a back-fill (their session's file was not read). */
export function reportUnplaced(run: Run): void {
  for (const [id, memo] of Object.entries(run.state.files)) {
    if (memo.ref !== undefined || memo.held.length === 0) continue;
    run.problems.push({
      file: memo.path,
      lineNo: 1,
      message: `Cursor sub-agent not shared: its session ${idsOf(id).session} was not read (${memo.held.length} lines held)`,
    });
  }
}
