import Redis from 'ioredis';
import { appliedEventsChannel, readAppliedEvents, AppliedEvents } from '@graph-history/http';
import { testQueuePrefix } from '../support/redis-keys';
import { EndpointFixture, endpointFixture } from './support/endpoint-fixture';
import { validRun } from './support/watch-events';

/** After each committed apply batch the ingestor tells the API's event streams on Redis. */
describe('apply publishes applied events', () => {
  const queuePrefix = testQueuePrefix();
  let f: EndpointFixture;
  let sub: Redis;
  const heard: AppliedEvents[] = [];

  beforeAll(async () => {
    sub = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    sub.on('message', (_channel: string, m: string) => {
      const parsed = readAppliedEvents(m);
      if (parsed) heard.push(parsed);
    });
    await sub.subscribe(appliedEventsChannel(queuePrefix));
    f = await endpointFixture(true, { QUEUE_PREFIX: queuePrefix, APPLY_BATCH_SIZE: '20' });
  });
  afterAll(async () => {
    sub.disconnect();
    await f.close();
  });

  it('publishes the graph and its newest applied seq, batch by batch', async () => {
    await f.send('pub', validRun('pub', 50));
    const g = await f.appliedThrough('pub', 50);
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      if (heard.some((m) => m.seq === 50)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const mine = heard.filter((m) => m.graphId === Number(g.graph_id));
    expect(mine.length).toBeGreaterThanOrEqual(3); // batches of at most 20
    expect(mine[mine.length - 1]!.seq).toBe(50);
    expect(mine.map((m) => m.seq)).toEqual([...mine.map((m) => m.seq)].sort((a, b) => a - b));
  });
});
