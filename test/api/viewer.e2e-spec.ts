import { ApiHarness, Res } from './support/api-harness';
import { EventScript } from './support/watch-events';

/** The graph `url`: a server-rendered viewer page, for keys of the owning account only. */
describe('viewer page (GET /graphs/{graph_id})', () => {
  let h: ApiHarness;
  let url: string;
  let firstEventId: string;
  const basic = (key: string) => ({
    authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
  });
  /** What a browser sends: Basic credentials only. */
  const open = (path: string, key: string | null = h.secret, method = 'GET') =>
    h.request(method, path, { key: null, headers: key ? basic(key) : {} });
  const rowOf = (r: Res, text: string) =>
    r.body.split('<tr>').find((row) => row.includes(text)) ?? '';

  beforeAll(async () => {
    h = await ApiHarness.start();
    const s = new EventScript(Date.now() - 60_000);
    s.session('s1', { title: 'Refactor the parser' })
      .agent('s1/a', 's1', { purpose: 'write the tests' })
      .agent('s1/a/b', 's1/a', { purpose: 'read the grammar' })
      .tasks('s1/a', [
        { content: 'one', status: 'completed' },
        { content: 'two', status: 'pending' },
      ])
      .status('s1/a', 'input_required', 'Which grammar?\nmore detail')
      .agent('s1/c', 's1', { purpose: 'later sibling' });
    await h.seed('shared', s.events);
    await h.seed(
      'theirs',
      new EventScript().session('t1', { title: 'secret plan' }).events,
      'globex',
    );
    await h.seed(
      'evil',
      new EventScript()
        .session('e1', { title: '<script>alert(1)</script>' })
        .status('e1', 'working', '"><img src=x onerror=alert(2)>').events,
    );
    await h.seed('big', new EventScript().session('b').fanOut('b', 1_000).events);
    const graph = (await h.get('/api/v1/graphs/gph_shared')).json;
    url = graph.url;
    firstEventId = graph.retention.first_event_id;
  }, 120_000);
  afterAll(() => h.stop());

  it('is the path of the graph url', () => {
    expect(new URL(url).pathname).toBe('/graphs/gph_shared');
  });

  it('opens for the owning account with Basic credentials, as an HTML page of the tree', async () => {
    const r = await open('/graphs/gph_shared');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    expect(r.headers.etag).toMatch(/^"/);
    expect(r.body).toMatch(/^<!doctype html>/);
    expect(r.body).toContain('<h1>Refactor the parser</h1>');
    // tree order: each parent before its children, siblings oldest first; indented by depth
    const names = ['Refactor the parser', 'write the tests', 'read the grammar', 'later sibling'];
    const at = names.map((n) => r.body.indexOf(`>${n}</a>`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(rowOf(r, 'read the grammar')).toContain('padding-left:3rem');
    expect(rowOf(r, 'later sibling')).toContain('padding-left:1.75rem');
    const agent = rowOf(r, 'write the tests');
    expect(agent).toContain('input_required');
    expect(agent).toContain('Which grammar?</td>');
    expect(agent).toContain('1/2 (1 open)');
    expect(agent).toContain('general');
    expect(r.body).toContain('4 nodes, in tree order.');
    // links to the JSON endpoints at the same moment
    const graph = (await h.get('/api/v1/graphs/gph_shared')).json;
    expect(r.body).toContain(`href="/api/v1/graphs/gph_shared?as_of=${graph.as_of_event_id}"`);
    expect(r.body).toContain(
      `href="/api/v1/graphs/gph_shared/events?as_of=${graph.as_of_event_id}"`,
    );
  });

  it('opens with a Bearer key too, and answers HEAD without a body', async () => {
    expect((await h.get('/graphs/gph_shared')).status).toBe(200);
    const head = await open('/graphs/gph_shared', h.secret, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('shows the graph as of an earlier event, by the API rules for as_of', async () => {
    const r = await open(`/graphs/gph_shared?as_of=${firstEventId}`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('1 nodes, in tree order.');
    expect(r.body).not.toContain('write the tests');
    const bad = await open('/graphs/gph_shared?as_of=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(bad.body).toContain('parameter_invalid');
    expect(bad.body).toContain('<code>as_of</code>');
    expect((await open('/graphs/gph_shared?expand[]=parent')).status).toBe(400);
  });

  it('answers 401 with a Basic challenge when no key or a wrong key is sent', async () => {
    for (const key of [null, `sk_live_${'x'.repeat(32)}`]) {
      const r = await open('/graphs/gph_shared', key);
      expect(r.status).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Basic realm="graph-history", charset="UTF-8"');
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('api_key_invalid');
      expect(r.body).not.toContain('Refactor the parser');
    }
  });

  it('is 404 for another account, exactly like a graph that does not exist', async () => {
    const other = await h.key('globex');
    const theirs = await open('/graphs/gph_shared', other);
    const missing = await open('/graphs/gph_nope', other);
    expect([theirs.status, missing.status]).toEqual([404, 404]);
    expect(theirs.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(theirs.body).toContain('resource_missing');
    expect(theirs.body).not.toContain('Refactor the parser');
    expect(theirs.body.replace(/gph_shared/g, 'gph_nope').replace(/req_\w+/g, '')).toBe(
      missing.body.replace(/req_\w+/g, ''),
    );
    expect((await open('/graphs/gph_theirs')).status).toBe(404);
  });

  it('is 403 for a restricted key of the owner that does not list the graph', async () => {
    const r = await open('/graphs/gph_shared', await h.key('acme', ['evil']));
    expect(r.status).toBe(403);
    expect(r.body).toContain('api_key_restricted');
    expect((await open('/graphs/gph_shared', await h.key('acme', ['shared']))).status).toBe(200);
  });

  it('escapes provider data', async () => {
    const r = await open('/graphs/gph_evil');
    expect(r.status).toBe(200);
    expect(r.body).not.toContain('<script');
    expect(r.body).not.toContain('<img');
    expect(r.body).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(r.body).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
  });

  it('shows the first 1,000 nodes and links to the rest as JSON', async () => {
    const r = await open('/graphs/gph_big');
    expect(r.status).toBe(200);
    expect(r.body.match(/<td class="name"/g)).toHaveLength(1_000);
    expect(r.body).toContain('The first 1,000 of 1,001 nodes');
    const more = /<a href="([^"]+)">the rest as JSON<\/a>/.exec(r.body)![1]!.replace(/&amp;/g, '&');
    const rest = await h.get(more);
    expect(rest.status).toBe(200);
    expect(rest.json.data).toHaveLength(1);
    expect(rest.json.has_more).toBe(false);
  });
});
