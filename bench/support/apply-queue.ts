import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { APPLY_QUEUE } from '../../apps/ingestor/src/jobs/job-queues';

/**
 * The ingestors' apply queue, seen from outside: paused, every worker stops taking apply jobs
 * (events are still stored and their jobs wait); resumed, they apply the backlog.
 */
export class ApplyQueueSwitch {
  private readonly redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
    maxRetriesPerRequest: null,
  });
  private readonly queue: Queue;

  constructor(prefix: string) {
    this.queue = new Queue(APPLY_QUEUE, { connection: this.redis, prefix });
  }

  pause = (): Promise<void> => this.queue.pause();
  resume = (): Promise<void> => this.queue.resume();

  async close(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
  }
}
