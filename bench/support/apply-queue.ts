import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { applyQueueName } from '../../apps/ingestor/src/jobs/job-queues';

/**
 * The ingestors' apply queues (one per apply shard: APPLY_PROCESSES), seen from outside: paused,
 * every worker stops taking apply jobs (events are still stored and their jobs wait); resumed,
 * they apply the backlog.
 */
export class ApplyQueueSwitch {
  private readonly redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
    maxRetriesPerRequest: null,
  });
  private readonly queues: Queue[];

  constructor(prefix: string, shards = Number(process.env.APPLY_PROCESSES ?? 1)) {
    this.queues = Array.from(
      { length: shards },
      (_, shard) => new Queue(applyQueueName(shard), { connection: this.redis, prefix }),
    );
  }

  pause = async (): Promise<void> => void (await Promise.all(this.queues.map((q) => q.pause())));
  resume = async (): Promise<void> => void (await Promise.all(this.queues.map((q) => q.resume())));

  async close(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.close()));
    this.redis.disconnect();
  }
}
