import type { AdapterOutput, PreparedLine, SourceLine, TimedLine } from './adapter';

/**
 * `toEvents` of an adapter from its `prepare` and `apply`: lines of several files are written
 * concurrently, so the prepared lines are stably sorted by their own time (ties keep the order
 * given) before they are applied.
 */
export function prepareSortApply<S, P extends TimedLine>(
  prepare: (state: S, line: SourceLine) => PreparedLine<P>,
  apply: (state: S, lines: readonly P[]) => AdapterOutput,
): (state: S, lines: readonly SourceLine[]) => AdapterOutput {
  return (state, lines) => {
    const problems: AdapterOutput['problems'] = [];
    const prepared: Array<{ line: P; order: number }> = [];
    lines.forEach((source, order) => {
      const out = prepare(state, source);
      if (out.problem) problems.push(out.problem);
      for (const line of out.line ? [out.line] : (out.lines ?? [])) prepared.push({ line, order });
    });
    prepared.sort((a, b) => (a.line.ts ?? -1) - (b.line.ts ?? -1) || a.order - b.order);
    const out = apply(
      state,
      prepared.map((p) => p.line),
    );
    return { events: out.events, problems: [...problems, ...out.problems] };
  };
}
