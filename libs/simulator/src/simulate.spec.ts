import {
  applyEvent,
  createGraphState,
  NodeRecord,
  RefView,
  validateBatch,
  WatchEvent,
  WATCH_EVENT_TYPES,
} from '@graph-history/domain';
import { DEFAULT_START_TIME, simulate, simulatedGraphKeys, simulationStream } from './simulate';

/** Validates events the way the ingestor does: batches of 1,000 against the refs stored so far. */
function validateInBatches(events: WatchEvent[]): void {
  const stored = new Map<string, { ended: boolean }>();
  const view: RefView = { get: (ref) => stored.get(ref) };
  for (let i = 0; i < events.length; i += 1_000) {
    const result = validateBatch(view, events.slice(i, i + 1_000), Date.now());
    if (!result.ok)
      throw new Error(
        `event ${i + result.index}: ${result.rejection.param}: ${result.rejection.message}`,
      );
    for (const [ref, state] of result.refs) stored.set(ref, state);
  }
}

/** Applies every event through the reducer; returns every node version produced. */
function applyAll(events: WatchEvent[]): NodeRecord[] {
  const state = createGraphState(1);
  return events.flatMap((ev, i) => applyEvent(state, ev, i + 1).versions);
}

describe('simulate', () => {
  it('gives the same events for the same seed and different ones for another seed', () => {
    const a = simulate({ graphs: 2, events: 300, seed: 42 });
    const b = simulate({ graphs: 2, events: 300, seed: 42 });
    const c = simulate({ graphs: 2, events: 300, seed: 43 });
    expect(b).toEqual(a);
    expect(c[0]!.events).not.toEqual(a[0]!.events);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('produces exactly the requested events per graph, with keys unique within each graph', () => {
    const graphs = simulate({ graphs: 3, events: 250, seed: 'x', graphKeyPrefix: 'load' });
    expect(graphs.map((g) => g.graphKey)).toEqual(['load-1', 'load-2', 'load-3']);
    for (const g of graphs) {
      expect(g.events).toHaveLength(250);
      expect(new Set(g.events.map((e) => e.key)).size).toBe(250);
      expect(g.events[0]!.type).toBe('session.started');
      expect(g.events[0]!.created).toBeGreaterThanOrEqual(DEFAULT_START_TIME);
    }
  });

  it.each([1, 2, 3, 4, 5])('passes ingest validation and the reducer for seed %i', (seed) => {
    for (const g of simulate({ graphs: 2, events: 2_500, seed })) {
      expect(() => validateInBatches(g.events)).not.toThrow();
      expect(() => applyAll(g.events)).not.toThrow();
    }
  });

  it('covers the vocabulary: every event type, fan-out, depth, background agents, ends, wait cycles', () => {
    const [g] = simulate({ graphs: 1, events: 5_000, seed: 7 });
    const events = g!.events;
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(WATCH_EVENT_TYPES));
    const ends = events.flatMap((e) => (e.type === 'ended' ? [e.payload.state] : []));
    expect(new Set(ends)).toEqual(new Set(['completed', 'failed', 'canceled']));
    expect(events.some((e) => e.type === 'agent.spawned' && e.payload.background === true)).toBe(
      true,
    );
    expect(events.some((e) => e.type === 'session.started' && e.payload.parent !== undefined)).toBe(
      true,
    );

    const versions = applyAll(events);
    expect(Math.max(...versions.map((v) => v.depth))).toBeGreaterThanOrEqual(3);
    expect(Math.max(...versions.map((v) => v.childCount))).toBeGreaterThanOrEqual(3);
    expect(versions.some((v) => v.backgroundAgentCount > 0)).toBe(true);
    expect(versions.some((v) => v.blocked?.cycle === true)).toBe(true);
    expect(versions.some((v) => v.attention !== null)).toBe(true);
    expect(versions.some((v) => v.taskCounts.completed > 0 && v.taskCounts.open > 0)).toBe(true);
  });

  it('sends an activity or usage to an ended node now and then, the events ended nodes accept', () => {
    const [g] = simulate({ graphs: 1, events: 5_000, seed: 9 });
    const ended = new Set<string>();
    const late = new Set<string>();
    for (const e of g!.events) {
      if (ended.has(e.node)) {
        expect(['activity', 'usage.reported']).toContain(e.type);
        late.add(e.type);
      }
      if (e.type === 'ended') ended.add(e.node);
    }
    expect([...late].sort()).toEqual(['activity', 'usage.reported']);
  });
});

describe('simulationStream', () => {
  it('merges the graphs in time order and continues each graph exactly as simulate does', () => {
    const options = { graphs: 3, seed: 5 };
    const live = simulationStream(options);
    const taken = Array.from({ length: 600 }, () => live.next().value!);
    const keys = simulatedGraphKeys(options);
    const full = simulate({ ...options, events: 600 });
    for (const [i, key] of keys.entries()) {
      const mine = taken.filter((t) => t.graph === key).map((t) => t.event);
      expect(mine.length).toBeGreaterThan(100);
      expect(mine).toEqual(full[i]!.events.slice(0, mine.length));
    }
    // Skewed events may claim an earlier time, so compare the running maximum of `created`.
    let newest = 0;
    let outOfOrder = 0;
    for (const { event } of taken) {
      if (event.created < newest - 3_000) outOfOrder++;
      newest = Math.max(newest, event.created);
    }
    expect(outOfOrder).toBe(0);
  });

  it('starts at the given time', () => {
    const first = simulationStream({ graphs: 1, seed: 1, startTime: 1_000_000 }).next().value!;
    expect(first.event.created).toBeGreaterThanOrEqual(1_000_000);
    expect(first.event.created).toBeLessThan(1_010_000);
  });

  it('rejects a graph count that is not a positive integer', () => {
    expect(() => simulate({ graphs: 0, events: 1, seed: 1 })).toThrow(RangeError);
  });
});
