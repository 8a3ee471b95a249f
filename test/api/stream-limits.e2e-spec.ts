import { testQueuePrefix } from '../support/redis-keys';
import { TEST_METRICS_TOKEN } from '../support/metrics-token';
import { ApiHarness } from './support/api-harness';
import { SseClient } from './support/sse-client';
import { EventScript } from './support/watch-events';

/** STREAM_MAX_PER_ACCOUNT and STREAM_MAX_PER_PROCESS: 429 in the envelope past either. */
describe('read API: caps on open streams', () => {
  let h: ApiHarness;
  const open: SseClient[] = [];

  beforeAll(async () => {
    h = await ApiHarness.start({
      QUEUE_PREFIX: testQueuePrefix(),
      STREAM_MAX_PER_ACCOUNT: '2',
      STREAM_MAX_PER_PROCESS: '3',
    });
    await h.seed('capped', new EventScript().session('capped').events);
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await h.stop();
  });

  const stream = async (key: string, path = '/api/v1/graphs/gph_capped/events/stream') => {
    const c = await SseClient.open(`${h.baseUrl}${path}`, { authorization: `Bearer ${key}` });
    if (c.status === 200) open.push(c);
    return c;
  };

  const openGauge = async (kind: string): Promise<number> => {
    const r = await h.get('/metrics', { key: TEST_METRICS_TOKEN });
    const line = r.body
      .split('\n')
      .find((l) => l.startsWith(`graph_history_api_streams_open{kind="${kind}"}`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('refuses an account’s stream past its cap, events and notices alike, and admits it again once one closes', async () => {
    const first = await stream(h.secret);
    const second = await stream(h.secret, '/api/v1/notices/stream');
    expect([first.status, second.status]).toEqual([200, 200]);
    for (const path of ['/api/v1/graphs/gph_capped/events/stream', '/api/v1/notices/stream']) {
      const refused = await stream(h.secret, path);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      const { error } = JSON.parse(refused.body);
      expect(error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit', param: null });
      expect(error.message).toMatch(
        /^Too many open streams for this account \(2\); close one; wait 5 seconds/,
      );
    }
    expect(await openGauge('events')).toBe(1);
    expect(await openGauge('notices')).toBe(1);
    // another key of the same account counts with it
    expect((await stream(await h.key('acme'))).status).toBe(429);
    // a client that leaves frees its place
    first.close();
    open.splice(open.indexOf(first), 1);
    let again: SseClient | undefined;
    for (const deadline = Date.now() + 5_000; Date.now() < deadline;) {
      again = await stream(h.secret);
      if (again.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(again!.status).toBe(200);
  });

  it('refuses any account past the process’s cap', async () => {
    // acme holds 2 of the 3
    const other = await h.key('other');
    expect((await stream(other, '/api/v1/notices/stream')).status).toBe(200);
    const refused = await stream(await h.key('third'), '/api/v1/notices/stream');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.message).toMatch(
      /^Too many open streams on this server; wait 5 seconds/,
    );
  });
});
