import type { AdapterOutput, SourceLine, TranscriptAdapter } from '../adapter';
import { ADAPTER_NAME, ADAPTER_VERSION, PROVIDER } from './emitter';
import { classifyPath, detectFiles } from './files';
import type { FileRole } from './files';
import type { ParsedLine } from './line';
import { type Run, fileMemo, routeLine, settlePending } from './line-router';
import { parseLine } from './parse-line';
import { type ClaudeCodeState, type FileMemo, createClaudeCodeState } from './state';

interface Ordered {
  role: FileRole;
  line: ParsedLine;
  file: FileMemo;
  order: number;
}

function toEvents(state: ClaudeCodeState, lines: readonly SourceLine[]): AdapterOutput {
  const run: Run = { state, out: [], problems: [] };
  const ordered: Ordered[] = [];
  lines.forEach((source, order) => {
    const role = classifyPath(source.file.path);
    if (!role) return;
    const parsed = parseLine(source.text, source.file.id, source.lineNo, role);
    if (parsed.ok === 'blank') return;
    if (parsed.ok === false) {
      run.problems.push({ file: source.file.path, lineNo: source.lineNo, message: parsed.message });
      return;
    }
    const file = fileMemo(state, source.file.id, source.file.path);
    if (parsed.line.ts === undefined) parsed.line.ts = file.lastTs;
    else file.lastTs = parsed.line.ts;
    ordered.push({ role, line: parsed.line, file, order });
  });
  // Files of a session are written concurrently; the transcript clock restores one story.
  ordered.sort((a, b) => (a.line.ts ?? -1) - (b.line.ts ?? -1) || a.order - b.order);
  for (const { role, line, file } of ordered) {
    try {
      routeLine(run, role, line, file);
    } catch (err) {
      run.problems.push({
        file: file.path,
        lineNo: line.lineNo,
        message: `line skipped: ${(err as Error).message}`,
      });
    }
  }
  return { events: run.out, problems: run.problems };
}

function flush(state: ClaudeCodeState): AdapterOutput {
  const run: Run = { state, out: [], problems: [] };
  settlePending(run);
  return { events: run.out, problems: run.problems };
}

/** Claude Code JSONL transcripts (1.0.x inline sidechains, 2.x sub-agent files). */
export const claudeCodeAdapter: TranscriptAdapter<ClaudeCodeState> = {
  name: ADAPTER_NAME,
  version: ADAPTER_VERSION,
  provider: PROVIDER,
  detect: detectFiles,
  initialState: createClaudeCodeState,
  toEvents,
  flush,
};
