import type { WatchEvent } from '@graph-history/domain';
import { type IngestClient, IngestRequestError } from '../ingest-client';
import type { WatchLog } from './watch-log';

/** Ingest limits (ingest.md): 1,000 events and 4 MiB per batch; batches stay under both. */
export const MAX_BATCH_EVENTS = 1_000;
export const MAX_BATCH_BYTES = 3.5 * 1024 * 1024;

export interface SendTotals {
  sent: number;
  accepted: number;
  duplicates: number;
  /** Events the server refused (400) and the watcher gave up on. */
  skipped: number;
}

export const emptyTotals = (): SendTotals => ({ sent: 0, accepted: 0, duplicates: 0, skipped: 0 });

/** Splits events into batches of at most MAX_BATCH_EVENTS events and about MAX_BATCH_BYTES. */
export function toBatches(events: readonly WatchEvent[]): WatchEvent[][] {
  const batches: WatchEvent[][] = [];
  let batch: WatchEvent[] = [];
  let bytes = 0;
  for (const event of events) {
    const size = Buffer.byteLength(JSON.stringify(event)) + 1;
    if (batch.length > 0 && (batch.length >= MAX_BATCH_EVENTS || bytes + size > MAX_BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(event);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

function refusedIndex(err: IngestRequestError, length: number): number | undefined {
  const match = /^events\[(\d+)\]/.exec(err.body?.param ?? '');
  const index = match ? Number(match[1]) : NaN;
  return Number.isInteger(index) && index < length ? index : undefined;
}

/**
 * Sends one graph's events in order, one batch at a time, each after the previous was answered.
 * Network errors, 5xx and 429 are retried by the IngestClient. A 400 names the first refused event
 * (`events[i]…`): that event is logged and dropped and the rest of the batch is sent again, so one
 * event the server will never take cannot wedge the watcher. A 413 splits the batch. Other
 * refusals (bad key, graph key taken) are thrown: they need the user.
 */
export class EventSender {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly graphKey: string,
    private readonly client: IngestClient,
    private readonly log: WatchLog,
  ) {}

  /** Sends after every earlier `send` of this sender finished (several projects may share a graph). */
  send(events: readonly WatchEvent[]): Promise<SendTotals> {
    const run = this.queue.then(() => this.sendAll(events));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async sendAll(events: readonly WatchEvent[]): Promise<SendTotals> {
    const totals = emptyTotals();
    for (const batch of toBatches(events)) await this.sendBatch(batch, totals);
    return totals;
  }

  private async sendBatch(batch: WatchEvent[], totals: SendTotals): Promise<void> {
    let pending = batch;
    while (pending.length > 0) {
      try {
        const result = await this.client.send(this.graphKey, pending);
        totals.sent += pending.length;
        totals.accepted += result.accepted;
        totals.duplicates += result.duplicates;
        return;
      } catch (err) {
        if (!(err instanceof IngestRequestError)) throw err;
        if (err.status === 413 && pending.length > 1) {
          const half = Math.ceil(pending.length / 2);
          await this.sendBatch(pending.slice(0, half), totals);
          return this.sendBatch(pending.slice(half), totals);
        }
        if (err.status !== 400 && err.status !== 413) throw err;
        const index = err.status === 400 ? refusedIndex(err, pending.length) : 0;
        if (index === undefined) {
          this.log.warn(
            `graph ${this.graphKey}: batch of ${pending.length} events refused (${err.message}); skipping it`,
          );
          totals.skipped += pending.length;
          return;
        }
        const bad = pending[index]!;
        this.log.warn(
          `graph ${this.graphKey}: skipping event ${bad.key} (${bad.type} on ${bad.node}): ${err.message}`,
        );
        totals.skipped += 1;
        pending = pending.filter((_, i) => i !== index);
      }
    }
  }
}
