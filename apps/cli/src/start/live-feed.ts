import { simulatedGraphKeys, simulationStream, SimulatedEvent } from '@graph-history/simulator';
import { IngestClient } from '../ingest-client';

/** How much simulated history is sent at once, before events start trickling in real time. */
const BACKFILL_MS = 10 * 60_000;
const MAX_BATCH = 1_000;

/**
 * Feeds one simulated live share through the ingest endpoint: the last ten minutes of activity at
 * once, then each event when its time comes (about one every 1.5 s), until stopped.
 */
export class LiveFeed {
  readonly graphKey: string;
  private readonly stream: Generator<SimulatedEvent, void, undefined>;
  private stopped = false;
  private wake: (() => void) | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly client: IngestClient,
    private readonly onError: (message: string) => void,
    seed = `${Date.now()}`,
    now = Date.now(),
  ) {
    const options = { graphs: 1, seed, startTime: now - BACKFILL_MS, graphKeyPrefix: 'demo' };
    this.stream = simulationStream(options);
    this.graphKey = simulatedGraphKeys(options)[0]!;
  }

  start(): void {
    this.running ??= this.run().catch((err: Error) =>
      this.onError(`The demo feed stopped: ${err.message}`),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private async run(): Promise<void> {
    let next = this.stream.next();
    while (!this.stopped && !next.done) {
      const due: unknown[] = [];
      while (!next.done && next.value.event.created <= Date.now() && due.length < MAX_BATCH) {
        due.push(next.value.event);
        next = this.stream.next();
      }
      if (due.length > 0) await this.client.send(this.graphKey, due);
      else if (!next.done) await this.sleep(Math.min(1_000, next.value.event.created - Date.now()));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
