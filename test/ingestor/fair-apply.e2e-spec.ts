import { createTestDatabase, TestDatabase } from '../support/test-database';
import { createKey, TestKey } from './support/api-keys';
import {
  deleteQueueKeys,
  RunningIngestor,
  startIngestor,
  uniqueQueuePrefix,
  waitFor,
} from './support/ingestor-harness';
import { validRun } from './support/watch-events';

const HEAVY_GRAPHS = 60;

/**
 * Apply scheduling is fair between accounts: with one account's many graphs queued, a second
 * account's apply, enqueued after all of them, runs before the first account's backlog drains.
 */
describe('apply scheduling between accounts', () => {
  let t: TestDatabase;
  let queuePrefix: string;
  let front: RunningIngestor;
  let heavy: TestKey;
  let light: TestKey;

  beforeAll(async () => {
    t = await createTestDatabase();
    queuePrefix = uniqueQueuePrefix();
    // stores and enqueues only: the jobs wait in Redis until a worker process starts
    front = await startIngestor(t.db, t.url, queuePrefix, false);
    heavy = await createKey(t.db, 'heavy');
    light = await createKey(t.db, 'light');
  });
  afterAll(async () => {
    await front.close();
    await deleteQueueKeys(queuePrefix);
    await t.drop();
  });

  const send = async (key: TestKey, graphKey: string, count: number) => {
    const res = await front.request('POST', `/ingest/v1/graphs/${graphKey}/events`, {
      headers: { authorization: key.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ events: validRun(graphKey, count) }),
    });
    expect(res.statusCode).toBe(202);
  };

  const unapplied = async (prefix: string): Promise<number> => {
    const rows = await t.db
      .selectFrom('graphs')
      .select(['graph_key', 'applied_seq', 'ingested_seq'])
      .where('graph_key', 'like', `${prefix}%`)
      .execute();
    return rows.filter((r) => r.ingested_seq === null || r.applied_seq < r.ingested_seq).length;
  };

  it("runs a light account's newly enqueued apply before a heavy account's backlog drains", async () => {
    await Promise.all(
      Array.from({ length: HEAVY_GRAPHS }, (_, i) => send(heavy, `heavy-${i}`, 60)),
    );
    await send(light, 'light-0', 5);
    expect(await unapplied('heavy-')).toBe(HEAVY_GRAPHS);

    // one worker, one graph at a time: the order the queue hands jobs out is the order of applies
    const worker = await startIngestor(t.db, t.url, queuePrefix, true, {
      APPLY_CONCURRENCY: '1',
    });
    try {
      const heavyLeft = await waitFor(
        'the light graph applied',
        async () => (await unapplied('light-')) === 0 && unapplied('heavy-'),
        30_000,
      );
      // FIFO would have applied every heavy graph first (0 left)
      expect(heavyLeft).toBeGreaterThan(HEAVY_GRAPHS / 2);
      await waitFor('the heavy backlog drained', async () => (await unapplied('heavy-')) === 0);
    } finally {
      await worker.close();
    }
  });
});
