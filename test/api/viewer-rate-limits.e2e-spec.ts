import { ApiHarness, Res } from './support/api-harness';
import { EventScript } from './support/watch-events';

/**
 * The viewer page's requests (session cookie) draw from buckets of their own: a key that spent its
 * bucket does not stop the person's viewer, nor the viewer the key; the viewer's bucket is bounded.
 */
describe('read API: the viewer session’s own rate-limit buckets', () => {
  let h: ApiHarness;
  let cookie: string;
  const viewerCall = () => ({ cookie, 'graph-history-viewer': '1' });

  beforeAll(async () => {
    h = await ApiHarness.start({
      RATE_LIMIT_PER_SECOND: '1',
      RATE_LIMIT_BURST: '10',
      VIEWER_RATE_LIMIT: '1',
      VIEWER_RATE_BURST: '30',
    });
    await h.seed('shared', new EventScript(Date.now() - 60_000).session('s1').events);
    const r: Res = await h.request('POST', '/sign-in', {
      key: null,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({ key: h.secret, next: '/graphs' }).toString(),
    });
    cookie = r.headers['set-cookie']!.split(';')[0]!;
  }, 120_000);
  afterAll(() => h.stop());

  it('serves the viewer while the key is refused, from a bounded bucket of the session', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await h.get('/api/v1/graphs/gph_shared')).status);
    expect(statuses).toContain(429);

    const viewer = await h.get('/api/v1/graphs/gph_shared', { key: null, headers: viewerCall() });
    expect(viewer.status).toBe(200);
    expect(viewer.headers['ratelimit-limit']).toBe('30');

    const more: number[] = [];
    for (let i = 0; i < 35; i++)
      more.push(
        (await h.get('/api/v1/graphs/gph_shared', { key: null, headers: viewerCall() })).status,
      );
    expect(more.slice(0, 25).every((s) => s === 200)).toBe(true);
    expect(more).toContain(429);
  });
});
