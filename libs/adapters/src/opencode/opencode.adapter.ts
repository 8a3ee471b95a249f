import type { PreparedLine, SourceLine } from '../adapter';
import { lineAdapter } from '../line-adapter';
import { getOwn } from '../own-record';
import { detectRowFiles } from './files';
import { type RowLine, parseRowLine } from './row-line';
import { routeRow } from './rows';
import { applySessionRow, createWhenReady } from './sessions';
import { ADAPTER_NAME, ADAPTER_VERSION, PROVIDER } from './source';
import {
  MAX_HELD_LINES,
  type OpencodeState,
  type Run,
  createOpencodeState,
  sessionOf,
} from './state';
import { noteTaskLink } from './task-links';

function prepare(state: OpencodeState, source: SourceLine): PreparedLine<RowLine> {
  const parsed = parseRowLine(source.text, source.file.id, source.file.path, source.lineNo);
  if (parsed.ok === 'blank') return {};
  if (parsed.ok === false) {
    return { problem: { file: source.file.path, lineNo: source.lineNo, message: parsed.message } };
  }
  const line = parsed.line;
  // a session row's first copy is dated by the session's creation
  if (line.table === 'session' && getOwn(state.sessions, line.id)?.createdAt === undefined) {
    const created = Number(line.row['time_created']);
    if (Number.isFinite(created) && created > 0) line.ts = created;
  }
  noteTaskLink(state, line);
  return { line };
}

function applyRow(run: Run, line: RowLine): void {
  if (line.table === 'session') return applySessionRow(run, line, routeRow);
  const memo = sessionOf(run.state, line.session, line.path);
  if (memo.ref === undefined) {
    if (memo.held.length < MAX_HELD_LINES) memo.held.push(line);
    return;
  }
  routeRow(run, memo, line);
}

function settle(run: Run): void {
  for (const [id, memo] of Object.entries(run.state.sessions)) {
    createWhenReady(run, id, routeRow);
    if (memo.ref !== undefined) continue;
    run.problems.push({
      file: memo.path,
      lineNo: 1,
      message: `opencode session ${id} not shared: ${memo.createdAt === undefined ? 'its session row was not read' : `its parent ${memo.parentId ?? '?'} was not read`} (${memo.held.length} rows held)`,
    });
  }
}

/**
 * opencode sessions (>= 1.2: SQLite `opencode.db`), as `watch` copies their rows out of the
 * database into one JSONL file per session (`{table, row}`; see apps/cli/src/watch/opencode).
 * Keys are the row ids with what of the row was applied, so rows copied again add nothing.
 */
export const opencodeAdapter = lineAdapter<OpencodeState, RowLine>({
  name: ADAPTER_NAME,
  version: ADAPTER_VERSION,
  provider: PROVIDER,
  detect: detectRowFiles,
  initialState: createOpencodeState,
  prepare,
  applyLine: applyRow,
  lineWord: 'row',
  settle,
});
