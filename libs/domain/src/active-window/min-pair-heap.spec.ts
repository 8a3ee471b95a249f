import fc from 'fast-check';
import { MinPairHeap } from './min-pair-heap';

/** Pops every pair, smallest key first. */
function drain(heap: MinPairHeap): [number, number][] {
  const out: [number, number][] = [];
  while (heap.size > 0) {
    out.push([heap.topKey!, heap.topValue!]);
    heap.pop();
  }
  return out;
}

const byKey = (pairs: [number, number][]) => [...pairs].sort((a, b) => a[0] - b[0]);
const sorted = (pairs: [number, number][]) => [...pairs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
const pairsArb = fc.array(fc.tuple(fc.integer({ min: -50, max: 50 }), fc.nat(1_000)));

describe('MinPairHeap', () => {
  it('is empty at first, and popping an empty heap does nothing', () => {
    const heap = new MinPairHeap();
    heap.pop();
    expect([heap.size, heap.topKey, heap.topValue]).toEqual([0, undefined, undefined]);
  });

  it('hands out pushed pairs by key, each with its own value', () => {
    fc.assert(
      fc.property(pairsArb, (pairs) => {
        const heap = new MinPairHeap();
        for (const [k, v] of pairs) heap.push(k, v);
        const out = drain(heap);
        expect(out.map(([k]) => k)).toEqual(byKey(pairs).map(([k]) => k));
        expect(sorted(out)).toEqual(sorted(pairs));
      }),
    );
  });

  it('reset replaces the pairs, and pushes after it keep the order', () => {
    fc.assert(
      fc.property(pairsArb, pairsArb, pairsArb, (before, reset, after) => {
        const heap = new MinPairHeap();
        for (const [k, v] of before) heap.push(k, v);
        heap.reset(reset);
        for (const [k, v] of after) heap.push(k, v);
        const out = drain(heap);
        expect(out.map(([k]) => k)).toEqual(byKey([...reset, ...after]).map(([k]) => k));
        expect(sorted(out)).toEqual(sorted([...reset, ...after]));
      }),
    );
  });
});
