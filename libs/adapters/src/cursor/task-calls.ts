import { str } from '../json';
import { getOwn, setOwn } from '../own-record';
import { idsOf } from './files';
import type { CursorState, TaskCall } from './state';
import type { TranscriptLine } from './transcript-line';

const TASK_TOOLS = new Set(['Task', 'task']);

/** Notes a line's `Task` calls (prepare time): a sub-agent's file is matched to one by its prompt. */
export function noteTaskCalls(state: CursorState, line: Omit<TranscriptLine, 'ts'>): void {
  if (line.role !== 'assistant') return;
  const session = idsOf(line.fileId).session;
  for (const block of line.blocks) {
    if (block['type'] !== 'tool_use' || !TASK_TOOLS.has(String(block['name']))) continue;
    const input = (block['input'] ?? {}) as Record<string, unknown>;
    const prompt = str(input['prompt']) ?? str(input['description']);
    const callId = str(block['id']) ?? `${line.fileId}:L${line.lineNo}`;
    const calls = getOwn(state.tasks, session) ?? [];
    if (prompt === undefined || calls.some((c) => c.callId === callId)) continue;
    calls.push({
      callId,
      callerFile: line.fileId,
      prompt: prompt.trim(),
      agentType: str(input['subagent_type']) ?? 'subagent',
      background: input['run_in_background'] === true,
    });
    setOwn(state.tasks, session, calls);
  }
}

/** The `Task` call whose prompt is the sub-agent's first words, not yet matched to another. */
export function matchTaskCall(
  state: CursorState,
  session: string,
  child: string,
  firstWords: string,
): TaskCall | undefined {
  const calls = getOwn(state.tasks, session) ?? [];
  const call =
    calls.find((c) => c.child === child) ??
    calls.find((c) => c.child === undefined && c.prompt === firstWords) ??
    calls.find((c) => c.child === undefined && firstWords.startsWith(c.prompt));
  if (call) call.child = child;
  return call;
}
