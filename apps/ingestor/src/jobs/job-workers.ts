import { Inject, Injectable, Logger } from '@nestjs/common';
import { Worker } from 'bullmq';
import { Config } from '@graph-history/config';
import { isConnectionError } from '@graph-history/db';
import { CONFIG, RedisClient, slotPrefix } from '@graph-history/http';
import { ApplyJobHandler } from '../apply/apply-job.handler';
import { IngestorMetrics } from '../ops/ingestor-metrics';
import { INGESTOR_OPTIONS, IngestorOptions, WORKER_REDIS } from '../tokens';
import { TrimJobHandler } from '../trim/trim-job.handler';
import { WebhookJobHandler } from '../webhooks/webhook-job.handler';
import { applyQueueName, GraphJob, TRIM_QUEUE, WEBHOOKS_QUEUE } from './job-queues';

/**
 * A job whose process died stays active, locked, until its lock expires and a stall check moves it
 * back to wait: at most lockDuration + stalledInterval. The sweeper's rescue jobs apply a graph
 * held that way within about a second; the reclaimed job then finds little or nothing to do.
 */
const STALL_OPTIONS = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 2 };

const ERROR_LOG_EVERY_MS = 60_000;

/** The consumer side: BullMQ workers running the apply, trim and webhooks handlers. */
@Injectable()
export class JobWorkers {
  private readonly logger = new Logger(JobWorkers.name);
  private workers: Worker<GraphJob>[] = [];

  constructor(
    @Inject(WORKER_REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(INGESTOR_OPTIONS) private readonly options: IngestorOptions,
    private readonly apply: ApplyJobHandler,
    private readonly trim: TrimJobHandler,
    private readonly webhooks: WebhookJobHandler,
    private readonly metrics: IngestorMetrics,
  ) {}

  start(): void {
    this.workers = [
      this.worker(
        applyQueueName(this.options.applyShard ?? 0),
        this.config.APPLY_CONCURRENCY,
        (graphId) => this.apply.handle(graphId),
      ),
      this.worker(TRIM_QUEUE, 1, (graphId) => this.trim.handle(graphId)),
      this.worker(WEBHOOKS_QUEUE, 1, () => this.webhooks.handle()),
    ];
  }

  /** Stops taking jobs and waits for the active ones to finish. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    this.workers = [];
  }

  private worker(
    queue: string,
    concurrency: number,
    handle: (graphId: number) => Promise<number>,
  ): Worker<GraphJob> {
    const worker = new Worker<GraphJob>(queue, (job) => handle(job.data.graphId), {
      connection: this.redis,
      prefix: slotPrefix(this.config, this.config.QUEUE_PREFIX),
      concurrency,
      ...STALL_OPTIONS,
    });
    worker.on('failed', (job, err) => {
      this.metrics.jobFailures.inc({ queue });
      const about = { queue, graphId: job?.data.graphId, attemptsMade: job?.attemptsMade };
      // The pool logs the lost connection once; the job is retried (and swept) until it is back.
      if (isConnectionError(err))
        this.logger.warn({ ...about, reason: err.message }, 'job failed: database unreachable');
      else this.logger.error({ err, ...about }, 'job failed');
    });
    // While Redis is away every reconnect attempt fails: one line per queue and minute is enough.
    let lastLogged = 0;
    worker.on('error', (err) => {
      if (Date.now() - lastLogged < ERROR_LOG_EVERY_MS) return;
      lastLogged = Date.now();
      this.logger.error({ err, queue }, 'worker error (repeats within a minute are not logged)');
    });
    return worker;
  }
}
