import { ApiHarness } from './support/api-harness';
import { EventScript } from './support/watch-events';

const RATE = { perSecond: 50, burst: 100 };

/**
 * Lists hold tokens before they read (FairShare): concurrent ones of a key share what its bucket
 * holds, and never make each other (or any request) refused while the bucket is not empty.
 */
describe('read API: concurrent lists of one key', () => {
  let h: ApiHarness;
  const path = (graph: string) => `/api/v1/graphs/gph_${graph}/nodes?limit=5`;

  beforeAll(async () => {
    h = await ApiHarness.start({
      RATE_LIMIT_PER_SECOND: String(RATE.perSecond),
      RATE_LIMIT_BURST: String(RATE.burst),
    });
    const s = new EventScript().session('s');
    for (let i = 0; i < 8; i++) s.agent(`s/a${i}`, 's');
    await h.seed('small', s.events, 'acme');
    await h.seed('flood', s.events, 'flooder');
  });
  afterAll(() => h.stop());

  it('answers 30 concurrent small lists of a key whose bucket pays for them all', async () => {
    const key = await h.key('acme');
    const one = await h.get(path('small'), { key });
    // each costs two tokens: 62 of the 100 the key holds
    expect(one.status).toBe(200);
    expect(one.headers['request-cost']).toBe('2');
    expect((one.json as { data: unknown[] }).data).toHaveLength(5);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => h.get(path('small'), { key })),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    // and whole pages: what the lists held together did not cut any short
    for (const a of answers) expect((a.json as { data: unknown[] }).data).toHaveLength(5);
  });

  it('still refuses a flood of lists past the bucket, with Retry-After', async () => {
    const key = await h.key('flooder');
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => h.get(path('flood'), { key })),
    );
    const seconds = (Date.now() - started) / 1000;
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const served = statuses.filter((s) => s === 200).length;
    // each admitted with one token and charged its second after: at least half the bucket's worth
    expect(served).toBeGreaterThanOrEqual(RATE.burst / 2);
    // never more than the bucket and what refilled meanwhile admit
    expect(served).toBeLessThanOrEqual(RATE.burst + Math.ceil(seconds * RATE.perSecond) + 1);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((refused.json as { error: { code: string } }).error.code).toBe('rate_limit');
  });
});
