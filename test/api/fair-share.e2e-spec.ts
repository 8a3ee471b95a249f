import { COST_UNIT_BYTES } from '../../apps/api/src/rate-limit/request-cost';
import { ApiHarness } from './support/api-harness';
import { EventScript } from './support/watch-events';
import { TEST_METRICS_TOKEN } from '../support/metrics-token';

/** Rate limits weighed by what a request cost, per key and per account. */
describe('read API: fair share', () => {
  let h: ApiHarness;
  let heavy: () => string;

  /** A session with 40 agents in `graphKey` of the account; the path of its costly read. */
  async function wideGraph(graphKey: string, account: string): Promise<string> {
    const s = new EventScript().session('s');
    for (let i = 0; i < 40; i++) s.agent(`s/a${i}`, 's');
    await h.seed(graphKey, s.events, account);
    const list = await h.get(`/api/v1/graphs/gph_${graphKey}/nodes?limit=1`, {
      key: await h.key(account),
    });
    return `/api/v1/graphs/gph_${graphKey}/nodes/${list.json.data[0].id}?expand[]=children&expand[]=descendants`;
  }

  beforeAll(async () => {
    h = await ApiHarness.start({
      RATE_LIMIT_PER_SECOND: '1',
      RATE_LIMIT_BURST: '60',
      ACCOUNT_RATE_LIMIT: '1',
      ACCOUNT_RATE_BURST: '80',
    });
    const path = await wideGraph('wide', 'acme');
    heavy = () => path;
  });
  afterAll(() => h.stop());

  it('charges a request by the size of what it built, and says so in the headers', async () => {
    const key = await h.key('acme');
    const light = await h.get('/api/v1/graphs/gph_wide', { key });
    expect(light.status).toBe(200);
    expect(light.headers['request-cost']).toBe('1');
    expect(light.headers['ratelimit-remaining']).toBe('59');

    const r = await h.get(heavy(), { key });
    expect(r.status).toBe(200);
    const cost = Number(r.headers['request-cost']);
    expect(cost).toBe(1 + Math.floor(Buffer.byteLength(r.body) / COST_UNIT_BYTES));
    expect(cost).toBeGreaterThan(10);
    // the remaining budget is the real one, after the charge
    expect(Number(r.headers['ratelimit-remaining'])).toBeLessThanOrEqual(59 - cost + 1);
    const next = await h.get('/api/v1/graphs/gph_wide', { key });
    expect(Number(next.headers['ratelimit-remaining'])).toBeLessThanOrEqual(59 - cost + 1);
  });

  it('refuses a key that spent its budget on costly requests', async () => {
    const path = await wideGraph('wide-solo', 'solo');
    const key = await h.key('solo');
    const statuses: number[] = [];
    for (let i = 0; i < 12 && !statuses.includes(429); i++)
      statuses.push((await h.get(path, { key })).status);
    // a burst of 60 tokens buys a handful of expansions, not 60
    expect(statuses.indexOf(429)).toBeGreaterThan(0);
    expect(statuses.indexOf(429)).toBeLessThan(8);
    const refused = await h.get('/api/v1/graphs/gph_wide-solo', { key });
    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('shares one budget among all keys of an account', async () => {
    await h.seed('g-many', new EventScript().session('m').events, 'many');
    const keys = await Promise.all(Array.from({ length: 4 }, () => h.key('many')));
    let served = 0;
    for (let round = 0; round < 40; round++)
      for (const key of keys)
        if ((await h.get('/api/v1/graphs/gph_g-many', { key })).status === 200) served++;
    // four keys of 60 would serve 160 requests; the account's bucket holds 80 (+ refill)
    expect(served).toBeGreaterThanOrEqual(80);
    expect(served).toBeLessThan(100);
    const metrics = (await h.get('/metrics', { key: TEST_METRICS_TOKEN })).body;
    expect(metrics).toMatch(/graph_history_api_rate_limited_total\{reason="account"\} [1-9]/);
  });
});
