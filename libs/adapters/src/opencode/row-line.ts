import type { TimedLine } from '../adapter';
import { type Json, isObject, parseJsonLine, str, timeOf } from '../json';

/** A row of opencode's `session`, `message` or `part` table, its `data` column parsed. */
export interface RowLine extends TimedLine {
  fileId: string;
  path: string;
  lineNo: number;
  table: 'session' | 'message' | 'part';
  row: Json;
  /** The row's `data` (message info, or part); `{}` for a session row. */
  data: Json;
  id: string;
  /** The session the row belongs to (a session row: itself). */
  session: string;
  updated: number;
}

export type ParsedRow =
  { ok: true; line: RowLine } | { ok: 'blank' } | { ok: false; message: string };

/** A tool part's own time: when its call ended, else started. */
function partTime(data: Json): number | undefined {
  const state = isObject(data['state']) ? data['state'] : {};
  const time = isObject(state['time']) ? state['time'] : {};
  return timeOf(time['end']) ?? timeOf(time['start']);
}

/** A message's own time: when it completed, else was created. */
function messageTime(data: Json): number | undefined {
  const time = isObject(data['time']) ? data['time'] : {};
  return timeOf(time['completed']) ?? timeOf(time['created']);
}

export function parseRowLine(
  text: string,
  fileId: string,
  path: string,
  lineNo: number,
): ParsedRow {
  const value = parseJsonLine(text);
  if (value === 'blank') return { ok: 'blank' };
  const table = value?.['table'];
  const row = value?.['row'];
  if ((table !== 'session' && table !== 'message' && table !== 'part') || !isObject(row)) {
    return { ok: false, message: 'not an opencode row ({table, row}); skipped' };
  }
  const id = str(row['id']);
  const session = table === 'session' ? id : str(row['session_id']);
  const updated = timeOf(row['time_updated']) ?? timeOf(row['time_created']);
  if (id === undefined || session === undefined || updated === undefined) {
    return { ok: false, message: `opencode ${table} row without id, session or time; skipped` };
  }
  const data = isObject(row['data']) ? row['data'] : {};
  const own =
    table === 'part' ? partTime(data) : table === 'message' ? messageTime(data) : undefined;
  return {
    ok: true,
    line: { ts: own ?? updated, fileId, path, lineNo, table, row, data, id, session, updated },
  };
}
