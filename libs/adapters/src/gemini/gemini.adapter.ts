import type { PreparedLine, SourceLine } from '../adapter';
import { type LineRun, lineAdapter } from '../line-adapter';
import { noteAgentCalls } from './agent-calls';
import { type ChatLine, parseChatLine } from './chat-line';
import { detectChats } from './files';
import { applyLine, reportUnplaced, settleHeaders } from './line-router';
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

/**
 * Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-….jsonl`, sub-agents in
 * `chats/<session id>/<agent id>.jsonl`). The records name no CLI version: it is sent `unknown`.
 * Gemini CLI hooks do not hand over to the watcher.
 */
export const geminiAdapter = lineAdapter<GeminiState, ChatLine>({
  name: ADAPTER_NAME,
  version: ADAPTER_VERSION,
  provider: PROVIDER,
  detect: detectChats,
  initialState: createGeminiState,
  prepare,
  applyLine,
  settle: (run: LineRun<GeminiState>) => {
    settleHeaders(run);
    reportUnplaced(run);
  },
});
