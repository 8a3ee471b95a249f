import { AccountBacklog, LOWEST_PRIORITY } from './account-backlog';

describe('AccountBacklog', () => {
  it("gives each account's jobs the number of its graphs asking lately", () => {
    const b = new AccountBacklog();
    const t = 1_000_000;
    for (let g = 1; g <= 300; g++) b.priority(1, g, t);
    expect(b.priority(1, 5, t + 10)).toBe(300); // a graph asking again counts once
    expect(b.priority(2, 1_001, t + 10)).toBe(1);
    // the next window remembers the previous one
    expect(b.priority(1, 7, t + 1_500)).toBe(300);
    expect(b.priority(2, 1_001, t + 1_500)).toBe(1);
    // two windows later, only what asked since counts
    expect(b.priority(1, 8, t + 3_100)).toBe(1);
  });

  it('forgets at once after a long silence, and never exceeds BullMQ’s range', () => {
    const b = new AccountBacklog();
    for (let g = 1; g <= 50; g++) b.priority(1, g, 0);
    expect(b.priority(1, 51, 60_000)).toBe(1);
    expect(LOWEST_PRIORITY).toBe(2 ** 21);
  });
});
