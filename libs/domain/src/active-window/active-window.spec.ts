import fc from 'fast-check';
import { NODE_STATES, NodeState } from '../node';
import { ActiveWindow, WindowNode } from './active-window';

/** The definition: working nodes last touched at or after `since`. */
const naiveCount = (nodes: Map<number, WindowNode>, since: number) =>
  [...nodes.values()].filter((n) => n.state === 'working' && n.lastEvent >= since).length;

type Op = { note: WindowNode } | { advance: number };

const nodeArb: fc.Arbitrary<WindowNode> = fc.record({
  no: fc.nat(12),
  state: fc.constantFrom<NodeState>(...NODE_STATES, 'working', 'working'),
  // any order, repeats and values behind the threshold included
  lastEvent: fc.integer({ min: 0, max: 400 }),
});
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: nodeArb.map((note) => ({ note })) },
  { weight: 1, arbitrary: fc.nat(40).map((advance) => ({ advance })) },
);

describe('ActiveWindow', () => {
  it('counts working nodes touched at or after since, dropping those that fall behind', () => {
    const w = ActiveWindow.of([
      { no: 1, state: 'working', lastEvent: 100 },
      { no: 2, state: 'working', lastEvent: 200 },
      { no: 3, state: 'idle', lastEvent: 300 },
    ]);
    expect(w.countSince(0)).toBe(2);
    expect(w.countSince(100)).toBe(2);
    expect(w.countSince(101)).toBe(1);
    w.note({ no: 1, state: 'working', lastEvent: 250 });
    w.note({ no: 3, state: 'working', lastEvent: 300 });
    expect(w.countSince(150)).toBe(3);
    w.note({ no: 2, state: 'completed', lastEvent: 260 });
    expect(w.countSince(250)).toBe(2);
    // a version behind the window does not count, whatever its state
    w.note({ no: 4, state: 'working', lastEvent: 249 });
    expect(w.countSince(250)).toBe(2);
    expect(w.countSince(301)).toBe(0);
  });

  it('refuses a since earlier than the last one', () => {
    const w = ActiveWindow.of([]);
    expect(w.countSince(10)).toBe(0);
    expect(() => w.countSince(9)).toThrow(RangeError);
  });

  it('agrees with the definition over any sequence of versions and forward thresholds', () => {
    fc.assert(
      fc.property(
        fc.array(nodeArb, { maxLength: 12 }),
        fc.array(opArb, { maxLength: 300 }),
        (start, ops) => {
          const nodes = new Map<number, WindowNode>(start.map((n) => [n.no, n]));
          const w = ActiveWindow.of(nodes.values());
          let since = 0;
          for (const op of ops) {
            if ('note' in op) {
              nodes.set(op.note.no, op.note);
              w.note(op.note);
            } else {
              since += op.advance;
              expect(w.countSince(since)).toBe(naiveCount(nodes, since));
            }
          }
          expect(w.countSince(since)).toBe(naiveCount(nodes, since));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps its heap small while the threshold stands still', () => {
    const w = ActiveWindow.of([]);
    for (let i = 0; i < 10_000; i++) w.note({ no: i % 3, state: 'working', lastEvent: i });
    expect(w.countSince(0)).toBe(3);
    expect((w as unknown as { heap: { size: number } }).heap.size).toBeLessThanOrEqual(64);
  });
});
