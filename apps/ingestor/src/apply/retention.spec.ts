import { retainedFirstSeq } from './retention';

describe('retainedFirstSeq', () => {
  it('starts the range at the first event', () => {
    expect(retainedFirstSeq(null, 1)).toBe(1);
    expect(retainedFirstSeq(null, 2_000)).toBe(1);
  });

  it('keeps up to 2,000 events, then cuts to the newest 1,000', () => {
    expect(retainedFirstSeq(1, 2_000)).toBe(1);
    expect(retainedFirstSeq(1, 2_001)).toBe(1_002);
    expect(retainedFirstSeq(null, 2_500)).toBe(1_501);
    expect(retainedFirstSeq(1_002, 3_001)).toBe(1_002);
    expect(retainedFirstSeq(1_002, 3_002)).toBe(2_003);
  });

  it('never holds more than 2,000 nor, once 1,000 arrived, fewer than 1,000', () => {
    let first: number | null = null;
    for (let applied = 1; applied <= 10_000; applied += 1 + (applied % 7)) {
      first = retainedFirstSeq(first, applied);
      const held = applied - first + 1;
      expect(held).toBeLessThanOrEqual(2_000);
      if (applied >= 1_000) expect(held).toBeGreaterThanOrEqual(1_000);
    }
  });
});
