/**
 * Gathers the items added during one turn of the event loop and hands them to `send` together:
 * under load, the apply requests of many concurrent ingest requests cost one Redis round trip.
 * Items of the same `keyOf` count once (the last added). Each `add` resolves (or rejects) with the
 * send of its batch.
 */
export class TickBatcher<T> {
  private items = new Map<unknown, T>();
  private scheduled: Promise<void> | null = null;

  constructor(
    private readonly send: (items: T[]) => Promise<unknown>,
    private readonly keyOf: (item: T) => unknown = (item) => item,
  ) {}

  add(item: T): Promise<void> {
    this.items.set(this.keyOf(item), item);
    this.scheduled ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const items = [...this.items.values()];
      this.items = new Map();
      this.scheduled = null;
      await this.send(items);
    });
    return this.scheduled;
  }
}
