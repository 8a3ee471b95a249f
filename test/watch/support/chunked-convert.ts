import type { SourceLine, TimedLine, TranscriptAdapter } from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import fc from 'fast-check';
import { expectValidStream } from './graph-replay';

/**
 * Converts chunks of lines as the watcher does: one adapter state, persisted as JSON between
 * passes, flushed at the end.
 */
export function convertChunks<S extends object, P extends TimedLine>(
  adapter: TranscriptAdapter<S, P>,
  chunks: SourceLine[][],
): WatchEvent[] {
  const state = adapter.initialState();
  const events: WatchEvent[] = [];
  for (const chunk of chunks) {
    events.push(...adapter.toEvents(state, chunk).events);
    Object.assign(state, JSON.parse(JSON.stringify(state)));
  }
  events.push(...adapter.flush(state).events);
  return events;
}

/**
 * Property: any prefix of each file, arriving in pieces interleaved in any order, converts to a
 * valid stream, with the same keys when converted again.
 */
export function expectAnyArrivalValid(
  files: SourceLine[][],
  convert: (...chunks: SourceLine[][]) => WatchEvent[],
  numRuns: number,
): void {
  fc.assert(
    fc.property(
      fc.tuple(...files.map((f) => fc.integer({ min: 0, max: f.length }))),
      fc.array(fc.nat({ max: files.length - 1 }), { minLength: files.length * 2, maxLength: 20 }),
      (cuts, order) => {
        const queues = files.map((f, i) => f.slice(0, cuts[i]));
        const chunks: SourceLine[][] = [];
        for (const pick of order) {
          const q = queues[pick]!;
          if (q.length > 0) chunks.push(q.splice(0, Math.ceil(q.length / 2)));
        }
        chunks.push(queues.flat());
        const first = convert(...chunks);
        expectValidStream(first);
        expect(convert(...chunks).map((e) => e.key)).toEqual(first.map((e) => e.key));
      },
    ),
    { numRuns },
  );
}
