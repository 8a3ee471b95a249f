import { StoreSlots } from './store-slots';

const turn = () => new Promise((r) => setImmediate(r));

describe('StoreSlots', () => {
  it('lets a lone account take every slot, then makes it wait', async () => {
    const slots = new StoreSlots(3, 10);
    const held = await Promise.all([1, 2, 3].map(() => slots.acquire(7)));
    expect(held.every((r) => typeof r === 'function')).toBe(true);
    expect(slots.heldBy(7)).toBe(3);
    let fourth = false;
    void slots.acquire(7).then(() => (fourth = true));
    await turn();
    expect(fourth).toBe(false);
    held[0]!();
    held[0]!(); // releasing twice gives back one slot only
    await turn();
    expect(fourth).toBe(true);
    expect(slots.heldBy(7)).toBe(3);
  });

  it("gives a freed slot to another account's waiting batch before the holder's next ones", async () => {
    const slots = new StoreSlots(4, 10);
    const flood = await Promise.all([1, 2, 3, 4].map(() => slots.acquire(1)));
    const order: string[] = [];
    const floodNext = [1, 2].map((i) => slots.acquire(1).then((r) => (order.push(`flood${i}`), r)));
    const other = slots.acquire(2).then((r) => (order.push('other'), r));
    flood[0]!();
    await turn();
    expect(order).toEqual(['other']);
    flood[1]!();
    flood[2]!();
    await Promise.all([other, ...floodNext]);
    expect(order).toEqual(['other', 'flood1', 'flood2']);
    expect([slots.heldBy(1), slots.heldBy(2)]).toEqual([3, 1]);
  });

  it('shares the slots evenly between accounts that keep batches waiting', async () => {
    const slots = new StoreSlots(6, 100);
    const releases: (() => void)[] = [];
    const take = (account: number) => void slots.acquire(account).then((r) => releases.push(r!));
    for (let i = 0; i < 6; i++) take(1); // account 1 alone: all six
    await turn();
    expect(slots.heldBy(1)).toBe(6);
    for (let i = 0; i < 20; i++) [1, 2, 3].forEach(take);
    // stores end one by one; each freed slot goes to the account holding the fewest
    for (let i = 0; i < 6; i++) {
      releases.shift()!();
      await turn();
    }
    expect([1, 2, 3].map((a) => slots.heldBy(a))).toEqual([2, 2, 2]);
  });

  it("refuses an account's batch past its waiting bound, not another account's", async () => {
    const slots = new StoreSlots(1, 1);
    await slots.acquire(1);
    void slots.acquire(1);
    expect(await slots.acquire(1)).toBeNull();
    // account 2 waits (a refusal would resolve at once, with null)
    expect(await Promise.race([slots.acquire(2), turn().then(() => 'waiting')])).toBe('waiting');
  });
});
