import type { PreparedLine, SourceLine } from '../adapter';
import { lineAdapter } from '../line-adapter';
import { ADAPTER_NAME, ADAPTER_VERSION, PROVIDER } from './emitter';
import { detectRollouts } from './files';
import { applyLine, reportUnplaced } from './line-router';
import { type RolloutLine, parseRolloutLine } from './rollout-line';
import { type CodexState, createCodexState, threadOf } from './state';

function prepare(state: CodexState, source: SourceLine): PreparedLine<RolloutLine> {
  const parsed = parseRolloutLine(source.text, source.file.id, source.file.path, source.lineNo);
  if (parsed.ok === 'blank') return {};
  if (parsed.ok === false) {
    return { problem: { file: source.file.path, lineNo: source.lineNo, message: parsed.message } };
  }
  const memo = threadOf(state, source.file.id, source.file.path);
  if (parsed.line.ts === undefined) parsed.line.ts = memo.lastTs;
  else memo.lastTs = parsed.line.ts;
  return { line: parsed.line };
}

/**
 * Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`).
 * Codex has no hooks that hand over to the watcher.
 */
export const codexAdapter = lineAdapter<CodexState, RolloutLine>({
  name: ADAPTER_NAME,
  version: ADAPTER_VERSION,
  provider: PROVIDER,
  detect: detectRollouts,
  initialState: createCodexState,
  prepare,
  applyLine,
  settle: reportUnplaced,
});
