import { childSortKey, descendantsUpperBound, sortKeySegment } from './sort-key';

describe('sort keys', () => {
  it('segments sort like their ordinals in byte order', () => {
    const ordinals = [
      0,
      1,
      9,
      10,
      35,
      36,
      37,
      1_295,
      1_296,
      46_655,
      46_656,
      2 ** 31,
      Number.MAX_SAFE_INTEGER,
    ];
    const segments = ordinals.map(sortKeySegment);
    expect([...segments].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))).toEqual(
      segments,
    );
    expect(segments.slice(0, 6)).toEqual(['10', '11', '19', '1a', '1z', '210']);
  });

  it('puts a parent before its subtree and the subtree before the next sibling', () => {
    const parent = sortKeySegment(3);
    const deepChild = childSortKey(childSortKey(parent, 40), 0);
    const nextSibling = sortKeySegment(4);
    const upper = descendantsUpperBound(parent);
    expect(parent < deepChild && deepChild < upper && upper < nextSibling).toBe(true);
    expect(parent < upper).toBe(true);
  });
});
