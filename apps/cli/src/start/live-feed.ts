import { simulatedGraphKeys, simulationStream, SimulatedEvent } from '@graph-history/simulator';
import { IngestClient } from '../ingest-client';
import { DemoPosition, writeDemoPosition } from './demo-position';

/** How much simulated history a new story sends at once, before events trickle in real time. */
const BACKFILL_MS = 10 * 60_000;
const MAX_BATCH = 1_000;

export interface LiveFeedOptions {
  /** Where the story's position is kept between starts (DATA_DIR/demo-feed.json); none: not kept. */
  positionFile?: string;
  /** A story to continue (read from `positionFile`): its next event is sent now, no backfill. */
  resume?: DemoPosition | null;
  /** A new story sends its last ten minutes at once (a new share); else it begins now. Default true. */
  backfill?: boolean;
  /** The database the story is fed into (databaseIdentity), kept with its position. */
  database?: string;
  now?: number;
}

/**
 * Feeds one simulated live share through the ingest endpoint. A new story sends its last ten
 * minutes of activity at once, then each event when its time comes (about one every 1.5 s), until
 * stopped. A resumed story replays the simulation (without sending) up to the last acknowledged
 * event, moves the rest forward so that it goes on from now, and continues with the same agents.
 */
export class LiveFeed {
  readonly graphKey: string;
  private readonly stream: Generator<SimulatedEvent, void, undefined>;
  private readonly position: DemoPosition;
  private next: IteratorResult<SimulatedEvent, void>;
  private stopped = false;
  private wake: (() => void) | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly client: IngestClient,
    private readonly onError: (message: string) => void,
    private readonly options: LiveFeedOptions = {},
  ) {
    const now = options.now ?? Date.now();
    const resume = options.resume;
    const backfillMs = options.backfill === false ? 0 : BACKFILL_MS;
    const start = resume ?? { seed: `${now}`, startTime: now - backfillMs, sent: 0, shiftMs: 0 };
    const simulation = {
      graphs: 1,
      seed: start.seed,
      startTime: start.startTime,
      graphKeyPrefix: 'demo',
    };
    this.stream = simulationStream(simulation);
    this.graphKey = simulatedGraphKeys(simulation)[0]!;
    this.position = { ...start, database: options.database ?? start.database };
    for (let i = 0; i < start.sent; i++) this.stream.next();
    this.next = this.stream.next();
    if (resume && !this.next.done) {
      const behind = now - (this.next.value.event.created + start.shiftMs);
      this.position.shiftMs += Math.max(0, behind);
    }
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
    const shifted = (e: SimulatedEvent) => e.event.created + this.position.shiftMs;
    while (!this.stopped && !this.next.done) {
      const due: unknown[] = [];
      while (!this.next.done && shifted(this.next.value) <= Date.now() && due.length < MAX_BATCH) {
        due.push({ ...this.next.value.event, created: shifted(this.next.value) });
        this.next = this.stream.next();
      }
      if (due.length > 0) {
        await this.client.send(this.graphKey, due);
        this.position.sent += due.length;
        if (this.options.positionFile)
          await writeDemoPosition(this.options.positionFile, this.position);
      } else if (!this.next.done) {
        await this.sleep(Math.min(1_000, shifted(this.next.value) - Date.now()));
      }
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
