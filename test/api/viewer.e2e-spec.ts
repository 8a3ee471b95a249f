import { ApiHarness, Res } from './support/api-harness';
import { EventScript } from './support/watch-events';

/**
 * The viewer's routes over HTTP: sign-in with a key opens a server-side session in a cookie; the
 * pages and the API accept that session (the API only from the viewer itself); keys still work
 * for scripts. The page itself is tested in a browser under test/viewer.
 */
describe('viewer sign-in and session (HTTP)', () => {
  let h: ApiHarness;
  /** What a browser sends with a same-origin form post. */
  const formHeaders = {
    'content-type': 'application/x-www-form-urlencoded',
    'sec-fetch-site': 'same-origin',
  };
  const viewerCall = (cookie: string) => ({ cookie, 'graph-history-viewer': '1' });

  async function signIn(key: string, next = '/graphs/gph_shared'): Promise<Res> {
    return h.request('POST', '/sign-in', {
      key: null,
      headers: formHeaders,
      body: new URLSearchParams({ key, next }).toString(),
    });
  }
  const cookieOf = (r: Res) => r.headers['set-cookie']!.split(';')[0]!;

  beforeAll(async () => {
    h = await ApiHarness.start({ VIEWER_SESSION_TTL_MS: '1500' });
    await h.seed(
      'shared',
      new EventScript(Date.now() - 60_000).session('s1', { title: 'Refactor' }).events,
    );
    await h.seed(
      'theirs',
      new EventScript().session('t1', { title: 'secret plan' }).events,
      'globex',
    );
  }, 120_000);
  afterAll(() => h.stop());

  it('sends a browser without a session to the sign-in page, keeping where it was going', async () => {
    const r = await h.get('/graphs/gph_shared?node=node_x', { key: null });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe(
      `/sign-in?next=${encodeURIComponent('/graphs/gph_shared?node=node_x')}`,
    );
    const form = await h.get('/sign-in?next=%2Fgraphs%2Fgph_shared', { key: null });
    expect(form.status).toBe(200);
    expect(form.body).toContain('<form method="post" action="/sign-in">');
    expect(form.body).toContain('value="/graphs/gph_shared"');
    expect(form.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('signs in with a key: an HttpOnly, SameSite=Lax session cookie, never the key', async () => {
    const r = await signIn(h.secret);
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/graphs/gph_shared');
    const cookie = r.headers['set-cookie']!;
    expect(cookie).toMatch(
      /^gh_session=[A-Za-z0-9_-]{43}; Max-Age=1; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(cookie).not.toContain(h.secret);
    const page = await h.get('/graphs/gph_shared', { key: null, headers: { cookie: cookieOf(r) } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="app">');
    expect(page.body).not.toContain(h.secret);
    expect(page.body).toMatch(
      /<script type="module" src="\/viewer\/[\w-]{12}\/viewer.js"><\/script>/,
    );
  });

  it('marks the cookie Secure over HTTPS', async () => {
    const r = await h.request('POST', '/sign-in', {
      key: null,
      headers: { ...formHeaders, 'x-forwarded-proto': 'https' },
      body: new URLSearchParams({ key: h.secret }).toString(),
    });
    expect(r.headers['set-cookie']).toContain('; Secure');
  });

  it('refuses a wrong key, and a sign-in posted from another site', async () => {
    const wrong = await signIn(`sk_live_${'x'.repeat(32)}`);
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(wrong.body).toContain('Invalid API key provided: sk_live_****xxxx');
    const crossSite = await h.request('POST', '/sign-in', {
      key: null,
      headers: { ...formHeaders, 'sec-fetch-site': 'cross-site' },
      body: new URLSearchParams({ key: h.secret }).toString(),
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers['set-cookie']).toBeUndefined();
    expect((await signIn(h.secret, 'https://evil.example/')).headers.location).toBe('/graphs');
  });

  it('lets the session read the API only from the viewer (its header or a same-origin link)', async () => {
    const cookie = cookieOf(await signIn(h.secret));
    const ok = await h.get('/api/v1/graphs/gph_shared', { key: null, headers: viewerCall(cookie) });
    expect(ok.status).toBe(200);
    expect(ok.json.id).toBe('gph_shared');
    const link = await h.get('/api/v1/graphs/gph_shared', {
      key: null,
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(link.status).toBe(200);
    // a cross-site page, or a request without the header, gets nothing from the cookie
    expect(
      (await h.get('/api/v1/graphs/gph_shared', { key: null, headers: { cookie } })).status,
    ).toBe(401);
    const cross = await h.get('/api/v1/graphs/gph_shared', {
      key: null,
      headers: { ...viewerCall(cookie), 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.status).toBe(401);
  });

  it("answers another account's graph as missing, to pages and to the API", async () => {
    const cookie = cookieOf(await signIn(h.secret));
    const page = await h.get('/graphs/gph_theirs', { key: null, headers: { cookie } });
    const none = await h.get('/graphs/gph_nope', { key: null, headers: { cookie } });
    expect([page.status, none.status]).toEqual([404, 404]);
    expect(page.body).toContain('resource_missing');
    expect(page.body).not.toContain('secret plan');
    const api = await h.get('/api/v1/graphs/gph_theirs', {
      key: null,
      headers: viewerCall(cookie),
    });
    expect(api.status).toBe(404);
    expect(api.json.error.code).toBe('resource_missing');
  });

  it('keeps Basic and Bearer keys working for scripts', async () => {
    const basic = { authorization: `Basic ${Buffer.from(`${h.secret}:`).toString('base64')}` };
    expect((await h.get('/graphs/gph_shared', { key: null, headers: basic })).status).toBe(200);
    expect((await h.get('/api/v1/graphs/gph_shared', { key: null, headers: basic })).status).toBe(
      200,
    );
    expect((await h.get('/graphs/gph_shared')).status).toBe(200);
    const wrong = await h.get('/graphs/gph_shared', { key: `sk_live_${'y'.repeat(32)}` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Basic realm="graph-history", charset="UTF-8"');
    expect((await h.get('/graphs/gph_theirs')).status).toBe(404);
  });

  it('ends the session on sign-out', async () => {
    const cookie = cookieOf(await signIn(h.secret));
    const out = await h.request('POST', '/sign-out', {
      key: null,
      headers: { ...formHeaders, cookie },
    });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/sign-in');
    expect(out.headers['set-cookie']).toMatch(/^gh_session=; Max-Age=0;/);
    expect((await h.get('/graphs/gph_shared', { key: null, headers: { cookie } })).status).toBe(
      303,
    );
    expect((await h.get('/api/v1/graphs', { key: null, headers: viewerCall(cookie) })).status).toBe(
      401,
    );
  });

  it('expires the session after VIEWER_SESSION_TTL_MS', async () => {
    const cookie = cookieOf(await signIn(h.secret));
    expect((await h.get('/graphs/gph_shared', { key: null, headers: { cookie } })).status).toBe(
      200,
    );
    await new Promise((r) => setTimeout(r, 1_600));
    expect((await h.get('/graphs/gph_shared', { key: null, headers: { cookie } })).status).toBe(
      303,
    );
  });

  it('serves the built front end under a content hash, cached for good', async () => {
    const page = await h.get('/graphs/gph_shared');
    const src = /src="(\/viewer\/[\w-]+\/viewer.js)"/.exec(page.body)![1]!;
    const js = await h.get(src, { key: null, headers: { 'accept-encoding': 'gzip' } });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await h.get('/viewer/AAAAAAAAAAAA/viewer.js', { key: null })).status).toBe(404);
  });
});
