import { Queue } from 'bullmq';
import { isDeepStrictEqual } from 'node:util';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { createKey, TestKey } from './support/api-keys';
import { expectAppliedOnce } from './support/expect-applied-once';
import { deleteQueueKeys, uniqueQueuePrefix, waitFor } from './support/ingestor-harness';
import { IngestorProcess } from './support/ingestor-process';
import { postEvents } from './support/post-events';
import { validRun } from './support/watch-events';

const GRAPHS = 6;
const EVENTS_PER_GRAPH = 600;
const BATCH = 100;

/**
 * The built ingestor with APPLY_PROCESSES=2 starts a worker-only process beside itself: each takes
 * the apply jobs of one shard, every graph is applied once, in order, and the worker stops with
 * the ingestor.
 */
describe('an ingestor with APPLY_PROCESSES=2', () => {
  let t: TestDatabase;
  let key: TestKey;
  let applyQueues: Queue[];
  const queuePrefix = uniqueQueuePrefix();
  /** Workers taking jobs from each shard's queue. */
  const applyWorkers = () =>
    Promise.all(applyQueues.map(async (q) => (await q.getWorkers()).length));

  beforeAll(async () => {
    t = await createTestDatabase();
    key = await createKey(t.db, 'processes');
    applyQueues = ['apply', 'apply-1'].map(
      (name) =>
        new Queue(name, { connection: { url: process.env.REDIS_URL! }, prefix: queuePrefix }),
    );
  });
  afterAll(async () => {
    await Promise.all(applyQueues.map((q) => q.close()));
    await deleteQueueKeys(queuePrefix);
    await t.drop();
  });

  it('applies through two processes and stops both on SIGTERM', async () => {
    const before = process.env.APPLY_PROCESSES;
    process.env.APPLY_PROCESSES = '2';
    let proc: IngestorProcess;
    try {
      proc = await IngestorProcess.start({ databaseUrl: t.url, queuePrefix });
    } finally {
      if (before === undefined) delete process.env.APPLY_PROCESSES;
      else process.env.APPLY_PROCESSES = before;
    }
    await waitFor('a process taking the jobs of each shard', async () =>
      isDeepStrictEqual(await applyWorkers(), [1, 1]),
    );

    const graphs = Array.from({ length: GRAPHS }, (_, g) => ({
      graphKey: `procs-${g}`,
      events: validRun(`procs-${g}`, EVENTS_PER_GRAPH),
    }));
    await Promise.all(
      graphs.map(async ({ graphKey, events }) => {
        for (let i = 0; i < events.length; i += BATCH) {
          const res = await postEvents(
            proc.baseUrl,
            key.auth,
            graphKey,
            events.slice(i, i + BATCH),
          );
          expect(res.status).toBe(202);
        }
      }),
    );
    await waitFor(
      'every graph applied',
      async () => {
        const rows = await t.db
          .selectFrom('graphs')
          .select('applied_seq')
          .where('applied_seq', '=', EVENTS_PER_GRAPH)
          .execute();
        return rows.length === GRAPHS;
      },
      60_000,
    );
    for (const { graphKey, events } of graphs) await expectAppliedOnce(t.db, graphKey, events);

    proc.kill('SIGTERM');
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    await waitFor('no process taking apply jobs', async () =>
      isDeepStrictEqual(await applyWorkers(), [0, 0]),
    );
  }, 120_000);
});
