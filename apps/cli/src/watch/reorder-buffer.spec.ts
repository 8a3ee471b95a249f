import { ReorderBuffer } from './reorder-buffer';

describe('ReorderBuffer (the live reorder window)', () => {
  const lines = (out: Array<{ line: string }>) => out.map((h) => h.line);

  it('holds lines for the window, letting an earlier line of another file read meanwhile go first', () => {
    const buffer = new ReorderBuffer<string>(1_000);
    buffer.add('a', 'a@20', 20, 0);
    expect(buffer.release(500)).toEqual([]);
    buffer.add('b', 'b@10', 10, 600);
    buffer.add('b', 'b@30', 30, 600);
    expect(buffer.nextDeadline()).toBe(1_000);
    // a@20 waited its window; b@10 is earlier, so it goes too; b@30 waits for its own window.
    expect(lines(buffer.release(1_000))).toEqual(['b@10', 'a@20']);
    expect(lines(buffer.release(1_599))).toEqual([]);
    expect(lines(buffer.release(1_600))).toEqual(['b@30']);
    expect(buffer.size).toBe(0);
  });

  it('releases at once what a hook or a back-fill says is complete, ties in read order', () => {
    const buffer = new ReorderBuffer<string>(60_000);
    buffer.add('a', 'first', 5, 0);
    buffer.add('b', 'second', 5, 0);
    buffer.add('a', 'later', 9, 0);
    buffer.add('a', 'undated', undefined, 0);
    expect(lines(buffer.release(1, 5))).toEqual(['undated', 'first', 'second']);
    expect(lines(buffer.releaseAll())).toEqual(['later']);
  });
});
