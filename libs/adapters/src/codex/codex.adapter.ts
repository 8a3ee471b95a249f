import type { AdapterOutput, PreparedLine, SourceLine, TranscriptAdapter } from '../adapter';
import { prepareSortApply } from '../to-events';
import { ADAPTER_NAME, ADAPTER_VERSION, PROVIDER } from './emitter';
import { detectRollouts } from './files';
import { applyLine, reportUnplaced } from './line-router';
import { type RolloutLine, parseRolloutLine } from './rollout-line';
import type { Run } from './run';
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

function apply(state: CodexState, lines: readonly RolloutLine[]): AdapterOutput {
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

function flush(state: CodexState): AdapterOutput {
  const run: Run = { state, out: [], problems: [] };
  reportUnplaced(run);
  return { events: run.out, problems: run.problems };
}

/** Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`). */
export const codexAdapter: TranscriptAdapter<CodexState, RolloutLine> = {
  name: ADAPTER_NAME,
  version: ADAPTER_VERSION,
  provider: PROVIDER,
  detect: (paths) => detectRollouts(paths),
  initialState: createCodexState,
  prepare,
  apply,
  // Codex has no hooks that hand over to the watcher.
  announce: () => ({ events: [], problems: [] }),
  toEvents: prepareSortApply(prepare, apply),
  flush,
};
