import fc from 'fast-check';
import { ActiveWindow } from '../active-window';
import { NodeRecord } from '../node';
import { applyEvent, createGraphState, graphStateFromRows, RejectedEventError } from '../reducer';
import { parseWatchEvent } from '../watch-event';
import { EventGenerator, Step, stepArb } from './event-generator';
import { NaiveOracle } from './naive-oracle';
import { rowsOf } from './state-snapshot';

/**
 * The graph read's scan over the nodes just before an event: working nodes last touched within
 * [created - staleAfterMs, created], `created` being the event's stored one.
 */
function scanCount(nodes: NodeRecord[], created: number, staleAfterMs: number): number {
  return nodes.filter(
    (r) => r.state === 'working' && r.lastEvent >= created - staleAfterMs && r.lastEvent <= created,
  ).length;
}

/**
 * Applies a random history as the apply does: the window counts before each event, at the
 * event's stored `created`, then takes the event's versions; state and window are rebuilt from
 * the rows now and then, as after a cache miss. Every count must be the scan's.
 */
function runHistory(steps: [Step, number][], staleAfterMs: number): void {
  let state = createGraphState(3);
  let window = ActiveWindow.of(state.nodes.values());
  const oracle = new NaiveOracle();
  const generator = new EventGenerator();
  for (const [step, rebuild] of steps) {
    const parsed = parseWatchEvent(generator.next(step).raw);
    if (!parsed.ok) continue;
    const before = [...state.nodes.values()].map((r) => ({ ...r }));
    let applied;
    try {
      applied = applyEvent(state, parsed.event, state.lastSeq + 1);
    } catch (error) {
      if (!(error instanceof RejectedEventError)) throw error;
      generator.resync(oracle);
      continue;
    }
    oracle.apply(parsed.event, applied.event.created);
    const { created } = applied.event;
    expect(window.countSince(created - staleAfterMs)).toBe(
      scanCount(before, created, staleAfterMs),
    );
    for (const version of applied.versions) window.note(version);
    if (rebuild === 0) {
      state = graphStateFromRows(rowsOf(state));
      window = ActiveWindow.of(state.nodes.values());
    }
  }
}

describe('ActiveWindow along reducer histories', () => {
  it('counts before each event what the scan of the nodes before it counts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(stepArb, fc.nat(9)), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 0, max: 200_000 }),
        runHistory,
      ),
      { numRuns: 300 },
    );
  });
});
