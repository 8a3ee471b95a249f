import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import { FIXTURES, fixtureLines } from './fixture-lines';

export const V2 = `${FIXTURES}/v2-subagent-files`;
const SESSION = 'fa812bfe-b295-4cca-9c2f-fdf01028cb46';
const COPY = '0b5e1c2d-7a3f-4e8b-9c1d-2e3f4a5b6c7d';

type Obj = Record<string, unknown>;

const timeOf = (line: SourceLine): number | undefined => {
  const ts = (JSON.parse(line.text) as Obj)['timestamp'];
  return typeof ts === 'string' ? Date.parse(ts) : undefined;
};

/** The same session under another id, its clock moved by `shiftMs`. */
function copySession(lines: readonly SourceLine[], shiftMs: number): SourceLine[] {
  const paths = [...new Set(lines.map((l) => l.file.path.replace(SESSION, COPY)))];
  const files = new Map(claudeCodeAdapter.detect(paths).map((f) => [f.path, f]));
  return lines.map((line) => {
    const row = JSON.parse(line.text) as Obj;
    if (typeof row['sessionId'] === 'string') row['sessionId'] = COPY;
    if (typeof row['timestamp'] === 'string')
      row['timestamp'] = new Date(Date.parse(row['timestamp']) + shiftMs).toISOString();
    return {
      file: files.get(line.file.path.replace(SESSION, COPY))!,
      lineNo: line.lineNo,
      text: JSON.stringify(row),
    };
  });
}

export interface Interleaved {
  /** Every line of both sessions, each file's lines in file order. */
  lines: SourceLine[];
  /** What each session alone converts to: the transcript's own times. */
  expected: WatchEvent[];
  /** Each session's first timestamp. */
  starts: Map<string, number>;
}

/**
 * Two real sessions (the 2.1.39 fixture and a copy of it) whose lines interleave in time: the
 * copy starts when the original is half way through.
 */
export function interleavedSessions(): Interleaved {
  const original = fixtureLines(claudeCodeAdapter, V2);
  const times = original.map(timeOf).filter((t): t is number => t !== undefined);
  const first = Math.min(...times);
  const shift = Math.round((Math.max(...times) - first) / 2) + 7;
  const copy = copySession(original, shift);
  const expected: WatchEvent[] = [];
  for (const lines of [original, copy]) {
    const state = claudeCodeAdapter.initialState();
    expected.push(...claudeCodeAdapter.toEvents(state, lines).events);
    expected.push(...claudeCodeAdapter.flush(state).events);
  }
  return {
    lines: [...original, ...copy],
    expected,
    starts: new Map([
      [SESSION, first],
      [COPY, first + shift],
    ]),
  };
}

/** Lines in the order a live session writes them: by transcript time, file order for ties. */
export function appendOrder(lines: readonly SourceLine[]): SourceLine[] {
  const last = new Map<string, number>();
  return lines
    .map((line, i) => {
      const ts = timeOf(line) ?? last.get(line.file.id) ?? 0;
      last.set(line.file.id, ts);
      return { line, ts, i };
    })
    .sort((a, b) => a.ts - b.ts || a.i - b.i)
    .map((t) => t.line);
}
