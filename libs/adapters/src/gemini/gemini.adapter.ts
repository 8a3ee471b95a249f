import type { AdapterOutput, PreparedLine, SourceLine, TranscriptAdapter } from '../adapter';
import { prepareSortApply } from '../to-events';
import { noteAgentCalls } from './agent-calls';
import { type ChatLine, parseChatLine } from './chat-line';
import { detectChats } from './files';
import { applyLine, reportUnplaced, settleHeaders } from './line-router';
import type { Run } from './run';
import { ADAPTER_NAME, ADAPTER_VERSION, PROVIDER } from './source';
import { type GeminiState, chatOf, createGeminiState } from './state';

function prepare(state: GeminiState, source: SourceLine): PreparedLine<ChatLine> {
  const parsed = parseChatLine(source.text, source.file.id, source.file.path, source.lineNo);
  if (parsed.ok === 'blank') return {};
  if (parsed.ok === false) {
    return { problem: { file: source.file.path, lineNo: source.lineNo, message: parsed.message } };
  }
  const memo = chatOf(state, source.file.id, source.file.path);
  // a line without a time of its own (a rewind) keeps its place after the file's last one
  if (parsed.line.ts === undefined) parsed.line.ts = memo.lastTs;
  else memo.lastTs = Math.max(memo.lastTs ?? 0, parsed.line.ts);
  noteAgentCalls(state, parsed.line);
  return { line: parsed.line };
}

function apply(state: GeminiState, lines: readonly ChatLine[]): AdapterOutput {
  const run: Run = { state, out: [], problems: [] };
  for (const line of lines) {
    try {
      applyLine(run, line);
    } catch (err) {
      run.problems.push({
        file: line.path,
        lineNo: line.lineNo,
        message: `line skipped: ${(err as Error).message}`,
      });
    }
  }
  return { events: run.out, problems: run.problems };
}

function flush(state: GeminiState): AdapterOutput {
  const run: Run = { state, out: [], problems: [] };
  settleHeaders(run);
  reportUnplaced(run);
  return { events: run.out, problems: run.problems };
}

/**
 * Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-….jsonl`, sub-agents in
 * `chats/<session id>/<agent id>.jsonl`). The records name no CLI version: it is sent `unknown`.
 */
export const geminiAdapter: TranscriptAdapter<GeminiState, ChatLine> = {
  name: ADAPTER_NAME,
  version: ADAPTER_VERSION,
  provider: PROVIDER,
  detect: (paths) => detectChats(paths),
  initialState: createGeminiState,
  prepare,
  apply,
  // Gemini CLI hooks do not hand over to the watcher.
  announce: () => ({ events: [], problems: [] }),
  toEvents: prepareSortApply(prepare, apply),
  flush,
};
