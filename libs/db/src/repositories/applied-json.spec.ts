import fc from 'fast-check';
import {
  applyEvent,
  createGraphState,
  storedEventJson,
  storedNodeJson,
  type AppliedEvent,
} from '@graph-history/domain';
import { simulate } from '@graph-history/simulator';
import { AppliedJsonEncoder, type AppliedJson } from './applied-json';

const GRAPH_ID = 2 ** 40 + 7;

/** The whole-object encoders' JSON of an applied event. */
const naive = ({ event, versions }: AppliedEvent): AppliedJson => ({
  eventJson: storedEventJson(GRAPH_ID, event),
  nodeJson: versions.map((v) => storedNodeJson(GRAPH_ID, v)),
});

/**
 * How the apply may meet a graph's events: in runs, each encoded once, again (a retried commit)
 * or not at all (a run never committed), with the encoder kept between runs or lost (a state
 * rebuilt from rows).
 */
const run = fc.record({
  length: fc.integer({ min: 1, max: 60 }),
  encoded: fc.constantFrom(0, 1, 1, 1, 2),
  newEncoder: fc.boolean(),
});

describe('AppliedJsonEncoder', () => {
  it('gives storedNodeJson and storedEventJson byte for byte, however the runs fall', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(run, { minLength: 1, maxLength: 12 }), (seed, runs) => {
        const { events } = simulate({ graphs: 1, events: 300, seed })[0]!;
        const state = createGraphState(GRAPH_ID);
        let json = new AppliedJsonEncoder(GRAPH_ID);
        let seq = 0;
        for (const { length, encoded, newEncoder } of runs) {
          if (newEncoder) json = new AppliedJsonEncoder(GRAPH_ID);
          const applied = events.slice(seq, seq + length).map((ev) => applyEvent(state, ev, ++seq));
          const expected = applied.map(naive);
          for (let n = 0; n < encoded; n++)
            expect(applied.map((a) => json.encode(a))).toEqual(expected);
        }
      }),
      { numRuns: 40 },
    );
  });
});
