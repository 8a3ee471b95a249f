import type { WatchEvent } from '@graph-history/domain';
import type {
  AdapterOutput,
  LineProblem,
  PreparedLine,
  SourceLine,
  TimedLine,
  TranscriptAdapter,
  TranscriptFile,
} from './adapter';
import { prepareSortApply } from './to-events';

/** One `apply` or `flush` call: the state it updates and what it produces. */
export interface LineRun<S> {
  state: S;
  out: WatchEvent[];
  problems: LineProblem[];
}

/** A prepared line that names where it was read. */
export interface PlacedLine extends TimedLine {
  path: string;
  lineNo: number;
}

/** What a provider adds to the shell every line adapter shares. */
export interface LineAdapterParts<S, P extends PlacedLine> {
  name: string;
  version: number;
  provider: string;
  detect(paths: readonly string[]): TranscriptFile[];
  initialState(): S;
  prepare(state: S, source: SourceLine): PreparedLine<P>;
  /** Applies one line; a line that throws is reported skipped and the others still apply. */
  applyLine(run: LineRun<S>, line: P): void;
  /** What a skipped line is called in its problem (`line skipped: …`). */
  lineWord?: string;
  /** Settles what still waits for lines that will not come. */
  settle(run: LineRun<S>): void;
}

/**
 * An adapter whose provider's hooks do not hand over to the watcher (nothing is announced):
 * `apply` runs `applyLine` on each line in order, `flush` runs `settle`.
 */
export function lineAdapter<S, P extends PlacedLine>(
  parts: LineAdapterParts<S, P>,
): TranscriptAdapter<S, P> {
  const { applyLine, settle, lineWord = 'line', ...rest } = parts;
  const apply = (state: S, lines: readonly P[]): AdapterOutput => {
    const run: LineRun<S> = { state, out: [], problems: [] };
    for (const line of lines) {
      try {
        applyLine(run, line);
      } catch (err) {
        run.problems.push({
          file: line.path,
          lineNo: line.lineNo,
          message: `${lineWord} skipped: ${(err as Error).message}`,
        });
      }
    }
    return { events: run.out, problems: run.problems };
  };
  const flush = (state: S): AdapterOutput => {
    const run: LineRun<S> = { state, out: [], problems: [] };
    settle(run);
    return { events: run.out, problems: run.problems };
  };
  return {
    ...rest,
    detect: (paths) => parts.detect(paths),
    apply,
    announce: () => ({ events: [], problems: [] }),
    toEvents: prepareSortApply(parts.prepare, apply),
    flush,
  };
}
