import { getOwn } from '../own-record';
import { emitterOfLine } from './emitter';
import { routeEventMsg } from './event-msg';
import { routeResponseItem } from './response-item';
import { isFork, readMeta } from './session-meta';
import { type RolloutLine, outputText, str } from './rollout-line';
import type { Run } from './run';
import { MAX_HELD_LINES, type ThreadMemo, countSkipped, threadOf } from './state';
import { createWhenReady } from './threads';
import { noteCopiedTotals, noteTurnContext } from './token-usage';

/**
 * Codex writes this as the output of the parent's spawn call at the end of a fork's copied
 * history (codex-rs/core agent control, FORKED_SPAWN_AGENT_OUTPUT_MESSAGE).
 */
const FORK_MARKER = /forked from your parent agent/i;

/** Applies one line of a created node. */
function route(run: Run, memo: ThreadMemo, line: RolloutLine): void {
  const emit = emitterOfLine(line, line.ts ?? memo.lastTs ?? 0, run.out);
  switch (line.type) {
    case 'event_msg':
      if (!routeEventMsg(run, memo, line.payload, emit))
        countSkipped(run.state, `event_msg:${String(line.payload['type'])}`);
      return;
    case 'response_item':
      routeResponseItem(run, memo, line.payload, emit);
      return;
    case 'compacted':
      emit.activity(memo, 'Conversation compacted');
      return;
    case 'turn_context':
      noteTurnContext(memo, line.payload);
      return;
    case 'session_meta':
      return;
    default:
      countSkipped(run.state, line.type);
  }
}

function endReplay(run: Run, memo: ThreadMemo, fileId: string): void {
  memo.replay = 'done';
  createWhenReady(run, fileId, route);
}

/**
 * A line of a fork's copied history: skipped. The copy ends before the line numbered
 * `subagent_history_start_ordinal` (newer versions), else with the parent's spawn call output.
 */
function readCopiedLine(run: Run, memo: ThreadMemo, line: RolloutLine): void {
  const p = line.payload;
  const ownFrom = memo.meta?.ownFrom;
  if (ownFrom !== undefined && line.ordinal !== undefined && line.ordinal >= ownFrom) {
    endReplay(run, memo, line.fileId);
    applyOwnLine(run, memo, line);
    return;
  }
  if (line.type === 'event_msg') noteCopiedTotals(memo, p);
  if (line.type === 'turn_context') noteTurnContext(memo, p);
  if (line.type !== 'response_item' || p['type'] !== 'function_call_output') return;
  if (!FORK_MARKER.test(outputText(p))) return;
  const call = str(p['call_id']);
  if (memo.meta && call !== undefined) memo.meta.spawnCallId ??= call;
  endReplay(run, memo, line.fileId);
}

function readSessionMeta(run: Run, memo: ThreadMemo, line: RolloutLine): void {
  const id = str(line.payload['id'])?.toLowerCase();
  if (memo.meta === undefined && (id === undefined || id === line.fileId)) {
    memo.meta = readMeta(line.payload, line.ts ?? 0);
    const version = str(line.payload['cli_version']);
    if (version !== undefined) memo.version = version;
    // Only a forked sub-agent's copy ends with a marker; a session the user forked keeps its copy.
    if (isFork(line.payload) && memo.meta.parentId !== undefined) memo.replay = 'on';
    createWhenReady(run, line.fileId, route);
    return;
  }
  // Another thread's meta inside this rollout: the start of a copy of its history (a fork).
  if (id !== line.fileId && memo.replay === undefined && memo.meta?.parentId !== undefined) {
    memo.replay = 'on';
  }
}

/** Applies one rollout line in timeline order. */
export function applyLine(run: Run, line: RolloutLine): void {
  const memo = threadOf(run.state, line.fileId, line.path);
  if (line.type === 'session_meta') {
    readSessionMeta(run, memo, line);
    return;
  }
  if (memo.replay === 'on') readCopiedLine(run, memo, line);
  else applyOwnLine(run, memo, line);
}

/** A thread's own line: applied, or held until the thread's node exists. */
function applyOwnLine(run: Run, memo: ThreadMemo, line: RolloutLine): void {
  if (memo.ref === undefined) {
    if (memo.held.length < MAX_HELD_LINES) memo.held.push(line);
    else countSkipped(run.state, 'held-overflow');
    return;
  }
  route(run, memo, line);
}

/** Threads still not created at the end of a back-fill (their parent's rollout was never read). */
export function reportUnplaced(run: Run): void {
  for (const [id, memo] of Object.entries(run.state.threads)) {
    if (memo.ref !== undefined || memo.meta === undefined) continue;
    const parent = memo.meta.parentId;
    const why =
      memo.replay === 'on'
        ? 'its copy of the parent history has no end yet'
        : `its parent thread ${parent ?? '?'} was not read${getOwn(run.state.threads, parent ?? '') ? ' as a node yet' : ''}`;
    run.problems.push({
      file: memo.path,
      lineNo: 1,
      message: `sub-agent ${id} not shared: ${why} (${memo.held.length} lines held)`,
    });
  }
}
