import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { applyQueueName, TRIM_QUEUE } from '../../apps/ingestor/src/jobs/job-queues';

const TRIM_POLL_MS = 200;

/**
 * The ingestors' apply queues (one per apply shard: APPLY_PROCESSES), seen from outside: paused,
 * every worker stops taking apply jobs (events are still stored and their jobs wait); resumed,
 * they apply the backlog. And their trim queue, to wait for the trims an earlier phase left.
 */
export class ApplyQueueSwitch {
  private readonly redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
    maxRetriesPerRequest: null,
  });
  private readonly queues: Queue[];
  private readonly trims: Queue;

  constructor(prefix: string, shards = Number(process.env.APPLY_PROCESSES ?? 1)) {
    this.queues = Array.from(
      { length: shards },
      (_, shard) => new Queue(applyQueueName(shard), { connection: this.redis, prefix }),
    );
    this.trims = new Queue(TRIM_QUEUE, { connection: this.redis, prefix });
  }

  /** Resolves when no trim job waits, is delayed or runs (false after `timeoutMs`). */
  async trimsDone(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if ((await this.trims.getJobCountByTypes('waiting', 'delayed', 'active')) === 0) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, TRIM_POLL_MS));
    }
  }

  pause = async (): Promise<void> => void (await Promise.all(this.queues.map((q) => q.pause())));
  resume = async (): Promise<void> => void (await Promise.all(this.queues.map((q) => q.resume())));

  async close(): Promise<void> {
    await Promise.all([...this.queues, this.trims].map((q) => q.close()));
    this.redis.disconnect();
  }
}
