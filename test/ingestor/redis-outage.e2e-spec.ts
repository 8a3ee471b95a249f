import { metricsAuth } from '../support/metrics-token';
import { RedisServer } from '../support/redis-server';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { createKey, TestKey } from './support/api-keys';
import { expectAppliedOnce } from './support/expect-applied-once';
import {
  RunningIngestor,
  startIngestor,
  uniqueQueuePrefix,
  waitFor,
} from './support/ingestor-harness';
import { SteadyLoad } from './support/steady-load';
import { validRun } from './support/watch-events';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Readable without Redis: while the ingestor's Redis is down, acknowledged events keep being
 * applied (in-process, driven by Postgres, under the graph's advisory lock); when it returns, the
 * queues take over, and every event is applied exactly once, in order. The outage here is short
 * (4 s at ~400 events/s); `pnpm bench:redis-outage` measures 30 s at 1,000 events/s.
 */
describe('a Redis outage', () => {
  let t: TestDatabase;
  let key: TestKey;
  let redis: RedisServer;
  let app: RunningIngestor;

  beforeAll(async () => {
    t = await createTestDatabase();
    key = await createKey(t.db, 'outage');
    redis = await RedisServer.start();
    app = await startIngestor(t.db, t.url, uniqueQueuePrefix(), true, { REDIS_URL: redis.url });
  });
  afterAll(async () => {
    // The workers wait for Redis to close: bring it back first if a failure left it down.
    if (!redis.running) await redis.restart();
    await app?.close();
    await redis?.kill();
    await t?.drop();
  });

  const metric = async (name: string) => {
    const text = (await app.request('GET', '/metrics', { headers: metricsAuth })).body;
    return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  };

  it('keeps applying acknowledged events while Redis is down, then hands back to the queues', async () => {
    const graphs = ['out-a', 'out-b'].map((graphKey) => ({
      graphKey,
      events: validRun(graphKey, 1_900), // below retention's 2,000, and enough load to outlast the outage
    }));
    const load = new SteadyLoad(t.db, app.baseUrl, key.auth, graphs, { batch: 10, everyMs: 50 });
    load.phase = 'before';
    load.start();
    try {
      await sleep(1_000);
      await redis.kill();
      load.phase = 'outage';
      await sleep(4_000);
      const downUntil = Date.now();
      // Readable while Redis was still down: what was acknowledged in the outage's first half.
      await load.settle(0).catch(() => undefined);
      const outage = load.acked.filter((b) => b.phase === 'outage');
      expect(outage.length).toBeGreaterThan(20);
      const early = outage.filter((b) => b.ackedAt < downUntil - 2_000);
      expect(early.length).toBeGreaterThan(5);
      expect(early.filter((b) => b.readableAt === null || b.readableAt > downUntil)).toEqual([]);
      expect(await metric('graph_history_apply_fallbacks_total')).toBeGreaterThan(0);

      await redis.restart();
      load.phase = 'after';
      // The queues take over: in-process applies stop while events keep becoming readable.
      await waitFor('the queues to take over', async () => {
        const before = await metric('graph_history_apply_fallbacks_total');
        await sleep(1_000);
        return (await metric('graph_history_apply_fallbacks_total')) === before;
      });
      const applied = await metric('graph_history_events_applied_total');
      await sleep(1_000);
      expect(await metric('graph_history_events_applied_total')).toBeGreaterThan(applied);
    } finally {
      await load.stop();
    }
    expect(load.failures).toEqual([]);
    await load.settle(20_000);
    for (const { graphKey, events } of graphs) {
      const sent = Math.max(
        ...load.acked.filter((b) => b.graphKey === graphKey).map((b) => b.lastSeq),
      );
      await expectAppliedOnce(t.db, graphKey, events.slice(0, sent));
    }
  }, 60_000);
});
