import type { WatchEvent } from '@graph-history/domain';
import { Db } from '@graph-history/db';

export interface LoadGraph {
  graphKey: string;
  /** Sent in order, `batch` at a time; the graph must be new (seq n is events[n - 1]). */
  events: WatchEvent[];
}

/** One acknowledged batch: when the 202 came, when its last event became readable. */
export interface AckedBatch {
  graphKey: string;
  lastSeq: number;
  phase: string;
  ackedAt: number;
  readableAt: number | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Offers a steady load to the ingest endpoint (every `everyMs`, one batch to each graph) and
 * measures store-to-readable per batch: from the 202 to graphs.applied_seq reaching the batch's
 * last seq (polled every `pollMs`). Batches are tagged with the phase current when acknowledged.
 */
export class SteadyLoad {
  phase = 'start';
  readonly acked: AckedBatch[] = [];
  readonly failures: string[] = [];
  private stopped = false;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly baseUrl: string,
    private readonly auth: string,
    private readonly graphs: LoadGraph[],
    private readonly options: { batch: number; everyMs: number; pollMs?: number },
  ) {}

  start(): void {
    this.running = Promise.all([...this.graphs.map((g) => this.send(g)), this.poll()]).then(
      () => undefined,
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Delays (ms) of the batches acknowledged in `phase`; unreadable ones count as Infinity. */
  delays(phase: string): number[] {
    return this.acked
      .filter((b) => b.phase === phase)
      .map((b) => (b.readableAt === null ? Infinity : b.readableAt - b.ackedAt))
      .sort((a, b) => a - b);
  }

  /** Waits until every acknowledged batch is readable. */
  async settle(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.acked.some((b) => b.readableAt === null)) {
      if (Date.now() > deadline) throw new Error('acknowledged batches did not become readable');
      await this.markReadable();
      await sleep(this.options.pollMs ?? 10);
    }
  }

  private async send({ graphKey, events }: LoadGraph): Promise<void> {
    const { batch, everyMs } = this.options;
    let next = performance.now();
    for (let i = 0; i < events.length && !this.stopped; i += batch) {
      const slice = events.slice(i, i + batch);
      const phase = this.phase;
      const res = await fetch(`${this.baseUrl}/ingest/v1/graphs/${graphKey}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: this.auth },
        body: JSON.stringify({ events: slice }),
      });
      const body = await res.text();
      if (res.status !== 202) {
        this.failures.push(`${graphKey} ${res.status} ${body}`);
        return;
      }
      this.acked.push({
        graphKey,
        lastSeq: i + slice.length,
        phase,
        ackedAt: Date.now(),
        readableAt: null,
      });
      next += everyMs;
      await sleep(Math.max(0, next - performance.now()));
    }
  }

  private async poll(): Promise<void> {
    while (!this.stopped) {
      await this.markReadable();
      await sleep(this.options.pollMs ?? 10);
    }
  }

  private async markReadable(): Promise<void> {
    const rows = await this.db
      .selectFrom('graphs')
      .select(['graph_key', 'applied_seq'])
      .where(
        'graph_key',
        'in',
        this.graphs.map((g) => g.graphKey),
      )
      .execute();
    const now = Date.now();
    const applied = new Map(rows.map((r) => [r.graph_key, r.applied_seq]));
    for (const b of this.acked)
      if (b.readableAt === null && (applied.get(b.graphKey) ?? 0) >= b.lastSeq) b.readableAt = now;
  }
}

/** The p-th percentile (0..100) of sorted values. */
export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
