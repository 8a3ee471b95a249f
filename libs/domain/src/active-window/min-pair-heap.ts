/**
 * A binary min-heap of (key, value) number pairs, ordered by key: the pairs live in two parallel
 * arrays, so pushing and popping allocate nothing per pair.
 */
export class MinPairHeap {
  private keys: number[] = [];
  private values: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** The smallest key; undefined when empty. */
  get topKey(): number | undefined {
    return this.keys[0];
  }

  /** The value paired with the smallest key; undefined when empty. */
  get topValue(): number | undefined {
    return this.values[0];
  }

  push(key: number, value: number): void {
    this.keys.push(key);
    this.values.push(value);
    this.siftUp(this.keys.length - 1);
  }

  /** Removes the pair with the smallest key (nothing when empty). */
  pop(): void {
    const lastKey = this.keys.pop();
    const lastValue = this.values.pop();
    if (this.keys.length === 0 || lastKey === undefined || lastValue === undefined) return;
    this.keys[0] = lastKey;
    this.values[0] = lastValue;
    this.siftDown(0);
  }

  /** Replaces every pair by these (heapified in linear time). */
  reset(pairs: Iterable<[key: number, value: number]>): void {
    this.keys = [];
    this.values = [];
    for (const [key, value] of pairs) {
      this.keys.push(key);
      this.values.push(value);
    }
    for (let i = (this.keys.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftUp(i: number): void {
    const { keys, values } = this;
    const key = keys[i]!;
    const value = values[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      values[i] = values[parent]!;
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
  }

  private siftDown(i: number): void {
    const { keys, values } = this;
    const n = keys.length;
    const key = keys[i]!;
    const value = values[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= key) break;
      keys[i] = keys[child]!;
      values[i] = values[child]!;
      i = child;
    }
    keys[i] = key;
    values[i] = value;
  }
}
