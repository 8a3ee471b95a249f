import { OpenApiResponses } from './support/openapi';
import { type HttpResponse, type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

/** Every kind of real response conforms to the schema the served OpenAPI document declares for it. */
describe('conformance: responses match the OpenAPI document', () => {
  let s: Services;
  let acme: IssuedKey;
  let restricted: IssuedKey;
  let schemas: OpenApiResponses;
  const id: Record<string, string> = {};
  let firstEvent: string;

  beforeAll(async () => {
    s = await Services.start();
    [acme, restricted] = await Promise.all([
      s.createKey('acme'),
      s.createKey('acme', ['gph_elsewhere']),
    ]);
    const script = new WatchScript()
      .session('S', { title: 'api', cwd: '/repo' })
      .agent('S/a', 'S', { background: false, spawn_call_id: 'toolu_1' })
      .agent('S/b', 'S/a')
      .event('tasks.updated', 'S/a', {
        tasks: [{ content: 'A', status: 'in_progress', active_form: 'Doing A' }],
      })
      .event('wait.started', 'S/a', { on: ['S/b'], reason: 'review' })
      .event('message.sent', 'S', { to: 'S/a', text: 'hi' })
      .event('attention.raised', 'S/b', { reason: 'permission' })
      .status('S/b', 'input_required', 'Asking\nfor access')
      .ended('S/b', 'failed')
      .session('R')
      .status('R', 'working');
    await s.load(acme, 'oa', script.events);
    for (const n of (await s.read('/graphs/gph_oa/nodes', acme.auth)).data)
      id[n.provider_ref] = n.id;
    firstEvent = (await s.read('/graphs/gph_oa/events?order=asc&limit=1', acme.auth)).data[0].id;
    schemas = new OpenApiResponses((await s.raw('/api/v1/openapi.json')).body);
  }, 90_000);
  afterAll(() => s?.stop());

  const all =
    'expand[]=parent&expand[]=root&expand[]=session&expand[]=requested_by&expand[]=blocked.on&expand[]=children&expand[]=descendants&expand[]=tasks&expand[]=spawns&expand[]=waits&expand[]=messages';
  const G = '/api/v1/graphs/{graph_id}';
  const N = '/api/v1/graphs/{graph_id}/nodes/{node_id}';
  const cases: Array<[string, string, () => Promise<HttpResponse>]> = [
    ['200 graph list', '/api/v1/graphs', () => s.get('/graphs', acme.auth)],
    ['200 graph', G, () => s.get('/graphs/gph_oa', acme.auth)],
    ['200 graph as_of', G, () => s.get(`/graphs/gph_oa?as_of=${firstEvent}`, acme.auth)],
    [
      '200 node, every expansion',
      N,
      () => s.get(`/graphs/gph_oa/nodes/${id['S/a']}?${all}`, acme.auth),
    ],
    [
      '200 node, nested',
      N,
      () =>
        s.get(
          `/graphs/gph_oa/nodes/${id['S/b']}?expand[]=parent.parent&expand[]=root.children.tasks`,
          acme.auth,
        ),
    ],
    [
      '200 node list',
      '/api/v1/graphs/{graph_id}/nodes',
      () =>
        s.get(
          '/graphs/gph_oa/nodes?order=tree&expand[]=data.parent&expand[]=data.blocked.on',
          acme.auth,
        ),
    ],
    [
      '200 event list',
      '/api/v1/graphs/{graph_id}/events',
      () =>
        s.get(
          '/graphs/gph_oa/events?expand[]=data.node.parent&expand[]=data.node.tasks',
          acme.auth,
        ),
    ],
    [
      '304',
      G,
      async () =>
        s.get('/graphs/gph_oa', acme.auth, {
          headers: {
            'if-none-match': (await s.get('/graphs/gph_oa', acme.auth)).headers.etag as string,
          },
        }),
    ],
    ['400', '/api/v1/graphs', () => s.get('/graphs?limit=0', acme.auth)],
    ['401', '/api/v1/graphs', () => s.get('/graphs', undefined)],
    ['403', G, () => s.get('/graphs/gph_oa', restricted.auth)],
    ['404', G, () => s.get('/graphs/gph_none', acme.auth)],
    [
      '404 node_not_yet_created',
      N,
      () => s.get(`/graphs/gph_oa/nodes/${id.R}?as_of=${firstEvent}`, acme.auth),
    ],
    ['410', G, () => s.get('/graphs/gph_oa?as_of=1', acme.auth)],
    ['405', G, () => s.raw('/api/v1/graphs/gph_oa', { method: 'DELETE', auth: acme.auth })],
  ];

  it.each(cases)('%s conforms to GET %s', async (_what, template, request) => {
    const res = await request();
    expect(schemas.errors(template, res)).toEqual([]);
  });

  it('finds a response that breaks the document (so the checks above can fail)', async () => {
    const res = await s.get('/graphs/gph_oa', acme.auth);
    const { counts: _dropped, ...withoutCounts } = res.body;
    expect(
      schemas.errors(G, { ...res, body: { ...withoutCounts, id: 42 } }).length,
    ).toBeGreaterThan(0);
  });
});
