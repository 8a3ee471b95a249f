import Ajv2020 from 'ajv/dist/2020';
import { NODE_FIELDS, NOTICE_TYPES, PUBLIC_SCHEMAS } from '@graph-history/domain';
import { noticeRun } from '../support/notice-events';
import { ApiHarness, Res, Json } from './support/api-harness';
import { EventScript } from './support/watch-events';
import { NODE_EXPANSIONS } from '../../apps/api/src/expand/expand-paths';

/** Real responses validate against the OpenAPI 3.1 document the API serves (JSON Schema 2020-12). */
describe('read API: OpenAPI document', () => {
  let h: ApiHarness;
  let doc: Json;
  let ajv: Ajv2020;

  beforeAll(async () => {
    h = await ApiHarness.start();
    const s = new EventScript();
    s.session('s', { title: 't', cwd: '/w' })
      .agent('s/a', 's', { background: false, spawn_call_id: 'c1' })
      .agent('s/b', 's/a')
      .tasks('s/a', [{ content: 'x', status: 'in_progress' }])
      .waitStarted('s/b', ['s/a'], 'r')
      .message('s/a', 's/b', 'hi')
      .status('s/a', 'input_required', 'ask')
      .attention('s/a', 'question', 'ok?');
    await h.seed('g', s.events);
    doc = (await h.get('/api/v1/openapi.json', { key: null })).json;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(doc, 'openapi.json');
  });
  afterAll(() => h.stop());

  /** Validates the response against the schema the document declares for this operation and status. */
  function check(path: string, r: Res) {
    const op = doc.paths[path].get;
    const declared = op.responses[String(r.status)];
    expect(declared).toBeDefined();
    const ref: string = declared.content['application/json'].schema.$ref;
    const validate = ajv.getSchema(`openapi.json${ref}`)!;
    const ok = validate(r.json);
    expect({ path, status: r.status, errors: ok ? null : validate.errors }).toEqual({
      path,
      status: r.status,
      errors: null,
    });
  }

  it('is an OpenAPI 3.1 document with every endpoint', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/v1/graphs',
      '/api/v1/graphs/{graph_id}',
      '/api/v1/graphs/{graph_id}/events',
      '/api/v1/graphs/{graph_id}/events/stream',
      '/api/v1/graphs/{graph_id}/nodes',
      '/api/v1/graphs/{graph_id}/nodes/{node_id}',
      '/api/v1/notices',
      '/api/v1/notices/stream',
    ]);
  });

  it('describes the graph endpoints', async () => {
    check('/api/v1/graphs', await h.get('/api/v1/graphs'));
    check('/api/v1/graphs/{graph_id}', await h.get('/api/v1/graphs/gph_g'));
    check('/api/v1/graphs/{graph_id}', await h.get('/api/v1/graphs/gph_g?as_of=1'));
    check('/api/v1/graphs/{graph_id}', await h.get('/api/v1/graphs/gph_nope'));
    check('/api/v1/graphs', await h.get('/api/v1/graphs', { key: null }));
  });

  it('describes nodes with every expansion', async () => {
    const nodes = await h.get(
      '/api/v1/graphs/gph_g/nodes?expand[]=data.children&expand[]=data.descendants',
    );
    check('/api/v1/graphs/{graph_id}/nodes', nodes);
    const all = NODE_EXPANSIONS;
    for (const n of nodes.json.data) {
      const r = await h.get(
        `/api/v1/graphs/gph_g/nodes/${n.id}?${all.map((p) => `expand[]=${p}`).join('&')}`,
      );
      expect(r.status).toBe(200);
      check('/api/v1/graphs/{graph_id}/nodes/{node_id}', r);
    }
    const node = ajv.getSchema('openapi.json#/components/schemas/Node')!;
    const sample = nodes.json.data[1];
    expect(sample.attention).toMatchObject({ reason: 'question', message: 'ok?' });
    expect(node(sample)).toBe(true);
    expect(node({ ...sample, surprise: 1 })).toBe(false);
    expect(node({ ...sample, state: 'sleeping' })).toBe(false);
    check(
      '/api/v1/graphs/{graph_id}/nodes/{node_id}',
      await h.get('/api/v1/graphs/gph_g/nodes/node_zzzz'),
    );
    check('/api/v1/graphs/{graph_id}/nodes', await h.get('/api/v1/graphs/gph_g/nodes?limit=0'));
  });

  it('describes events with data.node', async () => {
    check(
      '/api/v1/graphs/{graph_id}/events',
      await h.get('/api/v1/graphs/gph_g/events?expand[]=data.node.parent&expand[]=data.node.tasks'),
    );
    check(
      '/api/v1/graphs/{graph_id}/events',
      await h.get('/api/v1/graphs/gph_g/events?expand[]=a.b.c.d.e'),
    );
  });

  it('describes notices of every type, and the notice stream’s errors', async () => {
    await h.seed('n', noticeRun('n'));
    // a graph.quarantined notice as the apply writes it, beside the seeded ones
    const quarantine = await h.t.db
      .selectFrom('notices')
      .selectAll()
      .limit(1)
      .executeTakeFirstOrThrow();
    await h.t.db
      .insertInto('notices')
      .values({
        ...quarantine,
        notice_no: undefined,
        type: 'graph.quarantined',
        node_no: null,
        seq: null,
        body: JSON.stringify({
          ...JSON.parse(quarantine.body),
          type: 'graph.quarantined',
          node_id: null,
          event_id: null,
          data: { event_key: 'k', reason: 'refused' },
        }),
      } as never)
      .execute();
    const list = await h.get('/api/v1/notices');
    expect(new Set(list.json.data.map((n: { type: string }) => n.type))).toEqual(
      new Set(NOTICE_TYPES),
    );
    check('/api/v1/notices', list);
    check('/api/v1/notices', await h.get('/api/v1/notices?type=nope'));
    const notice = ajv.getSchema('openapi.json#/components/schemas/Notice')!;
    expect(notice({ ...list.json.data[0], type: 'node.exploded' })).toBe(false);
    check('/api/v1/notices/stream', await h.get('/api/v1/notices/stream?graph=gph_nope'));
  });

  it('describes the event stream’s errors', async () => {
    check(
      '/api/v1/graphs/{graph_id}/events/stream',
      await h.get('/api/v1/graphs/gph_nope/events/stream'),
    );
    check(
      '/api/v1/graphs/{graph_id}/events/stream',
      await h.get('/api/v1/graphs/gph_g/events/stream?limit=3'),
    );
  });
});

/** The public objects' one definition: the document serves it, responses follow its field order. */
describe('read API: public object schemas', () => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await ApiHarness.start();
    const s = new EventScript();
    s.session('s', { title: 't' }).agent('s/a', 's').waitStarted('s', ['s/a'], 'r');
    await h.seed('g', s.events);
  });
  afterAll(() => h.stop());

  it('serves the public object schemas as its components', async () => {
    const doc = (await h.get('/api/v1/openapi.json', { key: null })).json;
    expect(doc.components.schemas).toEqual(JSON.parse(JSON.stringify(PUBLIC_SCHEMAS)));
  });

  it('writes a Node’s fields in the schema’s order, expansions beside their _id field', async () => {
    const list = await h.get('/api/v1/graphs/gph_g/nodes?limit=1');
    const [root] = list.json.data;
    const r = await h.get(
      `/api/v1/graphs/gph_g/nodes/${root.id}?expand[]=session&expand[]=root&expand[]=blocked.on&expand[]=children`,
    );
    const keys = Object.keys(r.json);
    expect(keys).toEqual(NODE_FIELDS.filter((f) => f in r.json));
    expect(keys.slice(keys.indexOf('root_id'), keys.indexOf('root_id') + 4)).toEqual([
      'root_id',
      'root',
      'session_id',
      'session',
    ]);
    expect(Object.keys(r.json.blocked)).toEqual([
      'on_ids',
      'on',
      'starting',
      'node_count',
      'open_tasks',
      'cycle',
    ]);
    expect(Object.keys(list.json)).toEqual(Object.keys(PUBLIC_SCHEMAS.NodeList.properties));
  });

  it('writes a Graph’s and an Event’s fields in the schema’s order', async () => {
    const graph = await h.get('/api/v1/graphs/gph_g');
    const { properties, required } = PUBLIC_SCHEMAS.Graph;
    // every required field, and the optional ones present (apply_error, only while stalled), in order
    expect(Object.keys(graph.json)).toEqual(
      Object.keys(properties).filter(
        (k) => (required as readonly string[]).includes(k) || k in graph.json,
      ),
    );
    const events = await h.get('/api/v1/graphs/gph_g/events?limit=1&expand[]=data.node');
    expect(Object.keys(events.json.data[0])).toEqual(Object.keys(PUBLIC_SCHEMAS.Event.properties));
  });
});
