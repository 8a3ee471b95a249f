import { TickBatcher } from './tick-batcher';

describe('TickBatcher', () => {
  it('sends the distinct items added in one tick together, and later ones in a new batch', async () => {
    const sent: number[][] = [];
    const batcher = new TickBatcher<number>(async (items) => sent.push(items));
    await Promise.all([batcher.add(1), batcher.add(2), batcher.add(1)]);
    await batcher.add(3);
    expect(sent).toEqual([[1, 2], [3]]);
  });

  it('rejects every add of a batch whose send failed, and recovers for the next batch', async () => {
    let fail = true;
    const batcher = new TickBatcher<string>(async () => {
      if (fail) throw new Error('redis down');
    });
    const results = await Promise.allSettled([batcher.add('a'), batcher.add('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(batcher.add('c')).resolves.toBeUndefined();
  });
});
