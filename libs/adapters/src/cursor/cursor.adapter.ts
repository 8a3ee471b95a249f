import type { PreparedLine, SourceLine } from '../adapter';
import { lineAdapter } from '../line-adapter';
import { detectTranscripts } from './files';
import { applyLine, reportUnplaced } from './line-router';
import { ADAPTER_NAME, ADAPTER_VERSION, PROVIDER } from './source';
import { type CursorState, createCursorState, fileOf } from './state';
import { noteTaskCalls } from './task-calls';
import { type TranscriptLine, parseTranscriptLine } from './transcript-line';

/**
 * Cursor writes no time on its transcript lines: a line is dated by its file, the first line by
 * when the file was made, the others by when the file was last modified as they were read. A
 * file's times only move forward.
 */
function prepare(state: CursorState, source: SourceLine): PreparedLine<TranscriptLine> {
  const parsed = parseTranscriptLine(source);
  if (parsed.ok === 'blank') return {};
  if (parsed.ok === false) {
    return { problem: { file: source.file.path, lineNo: source.lineNo, message: parsed.message } };
  }
  const memo = fileOf(state, source.file.id, source.file.path);
  const times = source.fileTimes;
  const own = times === undefined ? undefined : source.lineNo === 1 ? times.born : times.modified;
  const ts = Math.max(memo.lastTs ?? 0, own ?? 0);
  memo.lastTs = ts;
  noteTaskCalls(state, parsed.line);
  return { line: { ...parsed.line, ts } };
}

/**
 * Cursor agent transcripts (`~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl`,
 * sub-agents in `<id>/subagents/<child>.jsonl`). The lines name no Cursor version: `unknown`.
 * Cursor hooks do not hand over to the watcher.
 */
export const cursorAdapter = lineAdapter<CursorState, TranscriptLine>({
  name: ADAPTER_NAME,
  version: ADAPTER_VERSION,
  provider: PROVIDER,
  detect: detectTranscripts,
  initialState: createCursorState,
  prepare,
  applyLine,
  settle: reportUnplaced,
});
