import { AccountConcurrency } from './account-concurrency';

describe('AccountConcurrency', () => {
  it('runs at most `limit` per account, hands slots over in order, and refuses past the queue', async () => {
    const c = new AccountConcurrency(2, 1);
    const a1 = await c.acquire(1);
    const a2 = await c.acquire(1);
    const other = await c.acquire(2);
    expect([a1, a2, other].every((r) => typeof r === 'function')).toBe(true);
    let third: (() => void) | null = null;
    const waiting = c.acquire(1).then((r) => (third = r));
    expect(await c.acquire(1)).toBeNull(); // one already waits
    await Promise.resolve();
    expect(third).toBeNull();
    a1!();
    a1!(); // releasing twice frees one slot only
    await waiting;
    expect(typeof third).toBe('function');
    // two running again (a2, third): the next one waits
    let fourth = false;
    void c.acquire(1).then(() => (fourth = true));
    await new Promise((r) => setImmediate(r));
    expect(fourth).toBe(false);
    a2!();
    await new Promise((r) => setImmediate(r));
    expect(fourth).toBe(true);
  });
});
