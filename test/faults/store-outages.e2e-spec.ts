import { simulate } from '@graph-history/simulator';
import { FaultStack } from '../support/fault-stack';
import { RetryingLoad } from '../support/retrying-load';
import { expectAppliedOnce } from '../ingestor/support/expect-applied-once';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a client gets from `url` now: the status, the envelope's error type, how long it took. */
async function answer(url: string, auth: string, init: RequestInit = {}) {
  const started = Date.now();
  const res = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: auth },
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { error?: { type?: string } };
  return { status: res.status, errorType: body.error?.type, ms: Date.now() - started };
}

/**
 * Both BUILT apps (run `pnpm build` first; the ingestor with an apply worker process) on a
 * Postgres and a Redis of the test's own, under a steady ingest and reads: Postgres restarted,
 * then killed (SIGKILL) for a while and started again, then Redis killed and started again, then
 * both at once. Nothing is done to the apps: they must stay up, answer 503 envelopes (not hang)
 * while Postgres is away, serve again within 5 s of its return, and end with every acknowledged
 * event applied exactly once. (bench:faults does the same with a 30 s outage at 500 events/s.)
 */
describe('Postgres and Redis outages under load', () => {
  let stack: FaultStack;
  let running: RetryingLoad | undefined;

  beforeAll(async () => {
    stack = await FaultStack.start({ applyProcesses: 2 });
  }, 120_000);
  afterAll(async () => {
    await running?.abandon();
    await stack?.stop();
  }, 60_000);

  it('keeps both apps up and loses or duplicates nothing acknowledged', async () => {
    const graphs = simulate({ graphs: 4, events: 1_500, seed: 'faults', graphKeyPrefix: 'f' });
    const load = new RetryingLoad(stack.ingestor.baseUrl, stack.api.baseUrl, stack.auth, graphs, {
      batch: 10,
      everyMs: 250,
    });
    const serving = () => Promise.all(stack.apps.map((app) => stack.timeToServing(app)));
    const ingestUrl = `${stack.ingestor.baseUrl}/ingest/v1/graphs/f-1/events`;
    running = load;
    load.start();
    await sleep(2_000);

    await stack.postgres.stop();
    await stack.postgres.start();
    const afterRestart = await serving();

    await sleep(1_500);
    await stack.postgres.kill();
    const postgresDownAt = Date.now();
    await sleep(1_000);
    const down = {
      read: await answer(`${stack.api.baseUrl}/api/v1/graphs`, stack.auth),
      ingest: await answer(ingestUrl, stack.auth, {
        method: 'POST',
        body: JSON.stringify({ events: graphs[0]!.events.slice(0, 1) }),
      }),
      apiReady: (await fetch(`${stack.api.baseUrl}/readyz`)).status,
      ingestorReady: (await fetch(`${stack.ingestor.baseUrl}/readyz`)).status,
    };
    await sleep(3_000);
    const ackedWhilePostgresDown = load.ackedSentBetween(postgresDownAt, Date.now());
    await stack.postgres.start();
    const afterKill = await serving();

    await sleep(1_500);
    await stack.redis.kill();
    const redisDownAt = Date.now();
    await sleep(3_000);
    const ackedDuringRedisOutage = load.ackedSentBetween(redisDownAt, Date.now());
    await stack.redis.restart();
    const afterRedis = await stack.timeToServing(stack.ingestor);

    await sleep(1_000);
    await Promise.all([stack.postgres.kill(), stack.redis.kill()]);
    await sleep(2_000);
    await Promise.all([stack.postgres.start(), stack.redis.restart()]);
    const afterBoth = await serving();

    await sleep(1_000);
    await load.stop();
    const logs = stack.apps.map((a) => a.logs()).join('\n');
    expect({ alive: stack.apps.map((a) => a.alive), logs }).toMatchObject({ alive: [true, true] });
    expect(logs).not.toMatch(/apply worker process exited|Emitted 'error' event/);
    await load.settle(stack.db, 20_000);

    expect(down).toMatchObject({
      read: { status: 503, errorType: 'api_error' },
      ingest: { status: 503, errorType: 'api_error' },
      apiReady: 503,
      ingestorReady: 503,
    });
    expect(Math.max(down.read.ms, down.ingest.ms)).toBeLessThan(5_000);
    for (const ms of [...afterRestart, ...afterKill, afterRedis, ...afterBoth])
      expect(ms).toBeLessThan(5_000);
    expect(ackedWhilePostgresDown).toBe(0);
    expect(ackedDuringRedisOutage).toBeGreaterThan(0);
    // while Postgres was away, clients got envelopes, never a hang, a 500 or a dropped connection
    const refusals = [...load.ingestRefusals, ...load.readRefusals];
    expect(refusals.filter((r) => r.status !== 503 || !r.envelope || r.ms > 10_000)).toEqual([]);
    expect(load.reads).toBeGreaterThan(0);
    // the load ran throughout: no graph ran out of events to send
    expect(graphs.filter((g) => load.acked.get(g.graphKey) === g.events.length)).toEqual([]);
    for (const g of graphs) await expectAppliedOnce(stack.db, g.graphKey, load.ackedEvents(g));
  }, 90_000);
});
