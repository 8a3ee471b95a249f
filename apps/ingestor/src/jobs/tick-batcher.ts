/**
 * Gathers the items added during one turn of the event loop and hands them to `send` together:
 * under load, the apply requests of many concurrent ingest requests cost one Redis round trip.
 * Each `add` resolves (or rejects) with the send of its batch.
 */
export class TickBatcher<T> {
  private items = new Set<T>();
  private scheduled: Promise<void> | null = null;

  constructor(private readonly send: (items: T[]) => Promise<unknown>) {}

  add(item: T): Promise<void> {
    this.items.add(item);
    this.scheduled ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const items = [...this.items];
      this.items = new Set();
      this.scheduled = null;
      await this.send(items);
    });
    return this.scheduled;
  }
}
