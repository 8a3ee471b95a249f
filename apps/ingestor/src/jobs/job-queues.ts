import { randomBytes } from 'node:crypto';
import { JobsOptions, Queue } from 'bullmq';
import type { RedisClient } from '@graph-history/http';
import { TickBatcher } from './tick-batcher';

export const APPLY_QUEUE = 'apply';

/**
 * The apply queue of a shard. Each apply process (APPLY_PROCESSES) takes the jobs of one shard,
 * and a graph always goes to the same shard, so its reducer state stays in that process's cache.
 * Shard 0 is `apply`, which holds every graph when APPLY_PROCESSES is 1.
 */
export const applyQueueName = (shard: number): string =>
  shard === 0 ? APPLY_QUEUE : `${APPLY_QUEUE}-${shard}`;

export const TRIM_QUEUE = 'trim';

/** One job at a time in the deployment: dispatch new notices, send due webhook deliveries. */
export const WEBHOOKS_QUEUE = 'webhooks';

export interface GraphJob {
  graphId: number;
}

/**
 * Retries with exponential backoff (0.1 s … 12.8 s); the newest failed jobs are kept for
 * inspection, a bounded number for a bounded time, so that they never pile up in Redis.
 */
const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 100 },
  removeOnComplete: true,
  removeOnFail: { count: 1_000, age: 24 * 3600 },
};

/** Trim waits a little so that reads that began before a retention cut finish before rows go. */
export const TRIM_DELAY_MS = 5_000;

/** A graph to apply and its job's priority (1 runs first; see AccountBacklog). */
export interface ApplyRequest {
  graphId: number;
  priority: number;
}

/**
 * The producer side of the ingestor's two queues. One apply job per graph at a time: while one
 * is active, a new request is kept and runs right after it (BullMQ `keepLastIfActive`, which keeps
 * the request's priority too), so events stored during a run are never left waiting; waiting
 * duplicates are dropped. Apply jobs are taken by priority, FIFO within one. Apply requests of one
 * event-loop turn go to Redis in one round trip.
 */
export class JobQueues {
  /** Scopes this process's rescue jobs (see rescueApply). */
  private readonly rescueScope = randomBytes(6).toString('hex');
  /** One queue per shard (see applyQueueName). */
  private readonly apply: Queue<GraphJob>[];
  private readonly trim: Queue<GraphJob>;
  private readonly webhooks: Queue;
  private readonly applyRequests = new TickBatcher<ApplyRequest>(
    (requests) =>
      this.addApplyJobs(requests, (graphId) => ({
        deduplication: { id: `apply-${graphId}`, keepLastIfActive: true },
      })),
    (r) => r.graphId,
  );

  /** `shards`: APPLY_PROCESSES, the same in every process of a deployment. */
  constructor(connection: RedisClient, prefix: string, shards = 1) {
    const queue = (name: string) =>
      new Queue<GraphJob>(name, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
    this.apply = Array.from({ length: shards }, (_, shard) => queue(applyQueueName(shard)));
    this.trim = queue(TRIM_QUEUE);
    this.webhooks = new Queue(WEBHOOKS_QUEUE, {
      connection,
      prefix,
      defaultJobOptions: DEFAULT_JOB_OPTIONS,
    });
    // Enqueueing is best effort (the sweeper re-derives jobs from Postgres) and failing commands
    // already reject; without a listener a dropped connection would throw as an unhandled 'error'.
    for (const q of this.queues()) q.on('error', () => undefined);
  }

  enqueueApply(graphId: number, priority: number): Promise<void> {
    return this.applyRequests.add({ graphId, priority });
  }

  /**
   * Apply jobs that run even while a graph's regular job is held elsewhere, e.g. by a process that
   * died (until BullMQ reclaims it): deduplicated per graph under an id of this process's own, so
   * neither that job nor a dead process's rescue holds them back. Racing a live applier is safe:
   * only one commit of a run of events succeeds (compare-and-set on applied_seq).
   */
  async rescueApply(requests: ApplyRequest[]): Promise<void> {
    await this.addApplyJobs(requests, (graphId) => ({
      deduplication: { id: `rescue-${this.rescueScope}-${graphId}` },
    }));
  }

  /**
   * Of `graphIds`, those whose regular apply job is active: held by a worker, perhaps one of a
   * process that died, which only a rescue gets past. A graph whose job waits is taken by the
   * next free worker, and one without a job gets one from the sweep: neither needs a rescue.
   */
  async heldApplies(graphIds: number[]): Promise<number[]> {
    const held = await Promise.all(
      graphIds.map(async (graphId) => {
        const queue = this.apply[graphId % this.apply.length]!;
        const jobId = await queue.getDeduplicationJobId(`apply-${graphId}`);
        return jobId !== null && (await queue.getJobState(jobId)) === 'active';
      }),
    );
    return graphIds.filter((_, i) => held[i]);
  }

  async enqueueTrim(graphId: number): Promise<void> {
    await this.trim.add(
      TRIM_QUEUE,
      { graphId },
      { delay: TRIM_DELAY_MS, deduplication: { id: `trim-${graphId}` } },
    );
  }

  /**
   * A `webhooks` job; while one runs, one more is kept to run right after it, so a notice
   * committed during a run is dispatched without waiting for the next sweep.
   */
  async enqueueWebhooks(): Promise<void> {
    await this.webhooks.add(
      WEBHOOKS_QUEUE,
      {},
      { deduplication: { id: WEBHOOKS_QUEUE, keepLastIfActive: true } },
    );
  }

  async close(): Promise<void> {
    // A queue closed while its connection check is in flight has that check fail after close,
    // when BullMQ has dropped its listeners: an unhandled 'error'. Let the check settle first.
    const queues = this.queues();
    await Promise.all(queues.map((q) => q.waitUntilReady().catch(() => undefined)));
    await Promise.all(queues.map((q) => q.close()));
  }

  private queues(): Queue[] {
    return [...this.apply, this.trim, this.webhooks];
  }

  /** Apply jobs of `requests`, each in its graph's shard queue, one round trip per queue. */
  private async addApplyJobs(
    requests: ApplyRequest[],
    opts: (graphId: number) => JobsOptions,
  ): Promise<void> {
    const byShard = new Map<number, ApplyRequest[]>();
    for (const r of requests) {
      const shard = r.graphId % this.apply.length;
      const rs = byShard.get(shard);
      if (rs) rs.push(r);
      else byShard.set(shard, [r]);
    }
    await Promise.all(
      [...byShard].map(([shard, rs]) =>
        this.apply[shard]!.addBulk(
          rs.map(({ graphId, priority }) => ({
            name: APPLY_QUEUE,
            data: { graphId },
            opts: { ...opts(graphId), priority },
          })),
        ),
      ),
    );
  }
}
