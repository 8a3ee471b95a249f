import Redis from 'ioredis';
import { Worker } from 'bullmq';
import { applyQueueName, JobQueues } from '@graph-history/ingestor/jobs/job-queues';
import { deleteRedisKeys, testQueuePrefix } from '../support/redis-keys';

/**
 * The sweeper rescues a stalled graph only when its regular apply job is active (perhaps held by
 * a dead process): a waiting job is taken by the next free worker, and a graph without one gets
 * one from the sweep.
 */
describe('JobQueues.heldApplies', () => {
  const url = process.env.REDIS_URL!;
  const prefix = testQueuePrefix();
  let redis: Redis;
  let queues: JobQueues;

  beforeAll(() => {
    redis = new Redis(url, { maxRetriesPerRequest: null });
    queues = new JobQueues(redis, prefix);
  });
  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await deleteRedisKeys(url, prefix);
  });

  it('names the graphs whose apply job is active, not those waiting or without one', async () => {
    await queues.enqueueApply(1, 1);
    await queues.enqueueApply(2, 1);
    expect(await queues.heldApplies([1, 2, 3])).toEqual([]);

    // a worker that takes one job and holds it
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: (graphId: number) => void;
    const taken = new Promise<number>((resolve) => (started = resolve));
    const connection = new Redis(url, { maxRetriesPerRequest: null });
    const worker = new Worker(
      applyQueueName(0),
      async (job) => {
        started(job.data.graphId as number);
        await held;
      },
      { connection, prefix, concurrency: 1 },
    );
    try {
      const active = await taken;
      const waiting = active === 1 ? 2 : 1;
      expect(await queues.heldApplies([1, 2, 3])).toEqual([active]);
      expect(await queues.heldApplies([waiting])).toEqual([]);
    } finally {
      release();
      await worker.close();
      connection.disconnect();
    }
  });
});
