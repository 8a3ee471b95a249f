import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import { expectValidStream } from './graph-replay';

/** Converts chunks of lines with one adapter state (then flushes) and checks the stream is valid. */
export function run(...chunks: SourceLine[][]): { events: WatchEvent[]; problems: string[] } {
  const state = claudeCodeAdapter.initialState();
  const events: WatchEvent[] = [];
  const problems: string[] = [];
  for (const chunk of [...chunks, null]) {
    const out = chunk ? claudeCodeAdapter.toEvents(state, chunk) : claudeCodeAdapter.flush(state);
    events.push(...out.events);
    problems.push(...out.problems.map((p) => `${p.file}:${p.lineNo}: ${p.message}`));
  }
  expectValidStream(events);
  return { events, problems };
}

export const ofType = <T extends WatchEvent['type']>(
  events: WatchEvent[],
  type: T,
  node?: string,
) =>
  events.filter(
    (e): e is Extract<WatchEvent, { type: T }> =>
      e.type === type && (node === undefined || e.node === node),
  );
