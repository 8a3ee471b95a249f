import type { Db } from '@graph-history/db';
import type { WatchEvent } from '@graph-history/domain';
import { waitUntil } from './wait';

export interface LoadGraph {
  graphKey: string;
  events: WatchEvent[];
}

/** One answer other than 202: what came back, how long it took, and whether it was an envelope. */
export interface Refusal {
  status: number;
  ms: number;
  envelope: boolean;
  at: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * Ingest as a careful client does it, through faults: each graph gets its next batch every
 * `everyMs`; a batch that is not acknowledged (any answer but 202, or no answer) is sent again
 * after `retryMs` until it is (event keys make re-sending safe). `acked` counts, per graph, the
 * events acknowledged, in order: the graph must end with exactly those. Alongside, `readers`
 * loops read the API's graph list; every answer but 200 is recorded too.
 */
export class RetryingLoad {
  readonly acked = new Map<string, number>();
  /** When each acknowledged batch was (last) sent, and its size. */
  private readonly ackedSends: { sentAt: number; events: number }[] = [];
  readonly ingestRefusals: Refusal[] = [];
  readonly readRefusals: Refusal[] = [];
  reads = 0;
  private stopped = false;
  private abandoned = false;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly ingestUrl: string,
    private readonly apiUrl: string,
    private readonly auth: string,
    private readonly graphs: LoadGraph[],
    private readonly options: {
      batch: number;
      everyMs: number;
      retryMs?: number;
      readers?: number;
    },
  ) {}

  start(): void {
    const readers = Array.from({ length: this.options.readers ?? 1 }, () => this.read());
    this.running = Promise.all([...this.graphs.map((g) => this.send(g)), ...readers]);
  }

  /** Stops at once, acknowledged or not (a failed test's clean-up). */
  async abandon(): Promise<void> {
    this.abandoned = true;
    await this.stop();
  }

  /** Stops after each graph's batch in flight is acknowledged. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** The events acknowledged for `graph`, in order. */
  ackedEvents(graph: LoadGraph): WatchEvent[] {
    return graph.events.slice(0, this.acked.get(graph.graphKey) ?? 0);
  }

  /** Waits until every graph's applied_seq is its acknowledged count. */
  async settle(db: Db, timeoutMs: number): Promise<void> {
    await waitUntil(
      'every acknowledged event applied',
      async () => {
        const rows = await db.selectFrom('graphs').select(['graph_key', 'applied_seq']).execute();
        const applied = new Map(rows.map((r) => [r.graph_key, r.applied_seq]));
        return this.graphs.every((g) => applied.get(g.graphKey) === this.acked.get(g.graphKey));
      },
      timeoutMs,
    );
  }

  /** Events acknowledged in answer to requests sent between `from` and `to` (ms since epoch). */
  ackedSentBetween(from: number, to: number): number {
    return this.ackedSends
      .filter((a) => a.sentAt >= from && a.sentAt < to)
      .reduce((n, a) => n + a.events, 0);
  }

  get ackedTotal(): number {
    return [...this.acked.values()].reduce((a, b) => a + b, 0);
  }

  private async send({ graphKey, events }: LoadGraph): Promise<void> {
    const { batch, everyMs, retryMs = 100 } = this.options;
    let next = performance.now();
    for (let i = 0; i < events.length && !this.stopped; i += batch) {
      const body = JSON.stringify({ events: events.slice(i, i + batch) });
      const url = `${this.ingestUrl}/ingest/v1/graphs/${graphKey}/events`;
      let sentAt = Date.now();
      while (!(await this.call(url, 'POST', body, 202, this.ingestRefusals))) {
        if (this.abandoned) return;
        await sleep(retryMs);
        sentAt = Date.now();
      }
      const acked = Math.min(events.length, i + batch);
      this.ackedSends.push({ sentAt, events: acked - i });
      this.acked.set(graphKey, acked);
      next += everyMs;
      await sleep(Math.max(0, next - performance.now()));
    }
  }

  private async read(): Promise<void> {
    while (!this.stopped) {
      await this.call(
        `${this.apiUrl}/api/v1/graphs?limit=10`,
        'GET',
        undefined,
        200,
        this.readRefusals,
      );
      this.reads++;
      await sleep(50);
    }
  }

  private async call(
    url: string,
    method: string,
    body: string | undefined,
    expected: number,
    refusals: Refusal[],
  ): Promise<boolean> {
    const started = Date.now();
    let status = 0;
    let text = '';
    try {
      const res = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json', authorization: this.auth },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      status = res.status;
      text = await res.text();
    } catch {
      // no answer (refused, reset or timed out): status 0
    }
    if (status === expected) return true;
    refusals.push({ status, ms: Date.now() - started, envelope: isEnvelope(text), at: started });
    return false;
  }
}

function isEnvelope(text: string): boolean {
  try {
    const body = JSON.parse(text) as { error?: { type?: unknown; message?: unknown } };
    return typeof body.error?.type === 'string' && typeof body.error.message === 'string';
  } catch {
    return false;
  }
}
