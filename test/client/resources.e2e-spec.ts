import { execFile } from 'node:child_process';
import { join } from 'node:path';
import {
  AuthenticationError,
  GraphHistory,
  GraphHistoryError,
  InvalidRequestError,
  PermissionError,
  type Node,
} from '@graph-history/client';
import { type IssuedKey, Services } from '../conformance/support/services';
import { WatchScript } from '../conformance/support/watch-events';

const T = 1_763_770_000_000;

/** The client's resource calls against the started services, compared with raw HTTP reads. */
describe('client: resources', () => {
  let s: Services;
  let acme: IssuedKey;
  let client: GraphHistory;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    s = await Services.start();
    acme = await s.createKey('acme');
    client = new GraphHistory({ apiKey: acme.key, baseUrl: s.apiBaseUrl });
    const script = new WatchScript(T, 1_000)
      .session('S', { title: 'Root session' })
      .agent('S/a', 'S', { background: false, requested_by: 'S' })
      .agent('S/a/b', 'S/a')
      .event('tasks.updated', 'S/a', { tasks: [{ id: 't1', content: 'A', status: 'pending' }] })
      .event('wait.started', 'S', { on: ['S/a/b'] })
      .status('S/a', 'working', 'busy');
    await s.load(acme, 'res', script.events);
    await s.load(acme, 'res-2', new WatchScript(T).session('X').events);
    for (const n of (await s.read('/graphs/gph_res/nodes', acme.auth)).data as Node[])
      id[n.provider_ref] = n.id;
  }, 90_000);
  afterAll(() => s?.stop());

  it('has the types of the OpenAPI document the API serves', async () => {
    const check = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile(
        process.execPath,
        [
          join(__dirname, '..', '..', 'libs', 'client', 'scripts', 'generate-types.mjs'),
          '--check',
          s.apiBaseUrl,
        ],
        (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: stdout + stderr }),
      ),
    );
    expect(check.out).toContain("the client's types match the document served");
    expect(check.code).toBe(0);
  }, 30_000);

  it('retrieves a graph exactly as the API serves it, now and as of an event', async () => {
    const graph = await client.graphs.retrieve('gph_res');
    expect(graph).toEqual(await s.read('/graphs/gph_res', acme.auth));
    const events = await client.events.list('gph_res', { order: 'asc', limit: 2 });
    const early = await client.graphs.retrieve('gph_res', { asOf: events.data[1]!.id });
    expect(early.as_of_event_id).toBe(events.data[1]!.id);
    expect(early.counts.nodes).toBe(2);
    const byTime = await client.graphs.retrieve('gph_res', { asOf: new Date(T + 1_000) });
    expect(byTime.as_of_event_id).toBe(events.data[1]!.id);
  });

  it('lists graphs as pages and as an async iterable', async () => {
    const page = await client.graphs.list({ limit: 1 });
    expect(page.object).toBe('list');
    expect(page.data).toHaveLength(1);
    expect(page.has_more).toBe(true);
    const ids: string[] = [];
    for await (const g of client.graphs.list({ limit: 1 })) ids.push(g.id);
    expect(ids.sort()).toEqual(['gph_res', 'gph_res-2']);
  });

  it('types and returns expansions: expand parent makes node.parent a Node', async () => {
    const node = await client.nodes.retrieve('gph_res', id['S/a']!, {
      expand: ['parent', 'children.tasks', 'tasks', 'blocked.on'],
    });
    expect(node.parent_id).toBe(id.S);
    if (node.parent_id === null) throw new Error('S/a has a parent');
    const parent: Node = node.parent;
    expect(parent.id).toBe(id.S);
    expect(node.children.data.map((c) => c.id)).toEqual([id['S/a/b']]);
    expect(node.children.data[0]!.tasks.object).toBe('list');
    expect(node.tasks.data.map((t) => t.id)).toEqual(['t1']);
    const session = await client.nodes.retrieve('gph_res', id.S!, { expand: ['blocked.on'] });
    expect(session.blocked?.on.data.map((n) => n.id)).toEqual([id['S/a'], id['S/a/b']]);
  });

  it('expands list items and event nodes', async () => {
    const nodes = await client.nodes
      .list('gph_res', { order: 'tree', expand: ['data.parent'] })
      .toArray({ limit: 10 });
    expect(nodes.map((n) => n.provider_ref)).toEqual(['S', 'S/a', 'S/a/b']);
    expect(nodes[1]!.parent?.id).toBe(id.S);
    const [event] = await client.events
      .list('gph_res', { limit: 1, expand: ['data.node.parent'] })
      .toArray({ limit: 1 });
    expect(event!.data.node?.id).toBe(id['S/a']);
    expect(event!.data.node?.parent?.id).toBe(id.S);
  });

  it('throws typed errors carrying code, param, doc_url, status and the request id', async () => {
    const err = await client.nodes.retrieve('gph_res', 'node_nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err).toBeInstanceOf(GraphHistoryError);
    const e = err as InvalidRequestError;
    expect(e).toMatchObject({
      type: 'invalid_request_error',
      code: 'resource_missing',
      status: 404,
    });
    expect(e.param).toBe('node_id');
    expect(e.doc_url).toMatch(/\/docs\/errors#resource_missing$/);
    expect(e.requestId).toMatch(/^req_/);

    const early = await client.events.list('gph_res', { order: 'asc', limit: 1 });
    const notYet = await client.nodes
      .retrieve('gph_res', id['S/a/b']!, { asOf: early.data[0]!.id })
      .catch((x: unknown) => x);
    expect(notYet).toBeInstanceOf(InvalidRequestError);
    expect(notYet).toMatchObject({ code: 'node_not_yet_created', status: 404, param: 'as_of' });
    expect((notYet as InvalidRequestError).first_event_id).toMatch(/^evt_/);
    const retention = (await client.graphs.retrieve('gph_res')).retention;
    const outside = await client.graphs
      .retrieve('gph_res', { asOf: T - 1 })
      .catch((x: unknown) => x);
    expect(outside).toMatchObject({
      name: 'InvalidRequestError',
      code: 'outside_retention_window',
      status: 410,
      first_event_id: retention.first_event_id,
      last_event_id: retention.last_event_id,
    });

    const bad = new GraphHistory({ apiKey: 'sk_live_nope', baseUrl: s.apiBaseUrl });
    const auth = await bad.graphs.retrieve('gph_res').catch((x: unknown) => x);
    expect(auth).toBeInstanceOf(AuthenticationError);
    expect(auth).toMatchObject({ code: 'api_key_invalid', status: 401 });

    const restricted = await s.createKey('acme', ['gph_res-2']);
    const limited = new GraphHistory({ apiKey: restricted.key, baseUrl: s.apiBaseUrl });
    const denied = await limited.graphs.retrieve('gph_res').catch((x: unknown) => x);
    expect(denied).toBeInstanceOf(PermissionError);
    expect(denied).toMatchObject({ code: 'api_key_restricted', status: 403 });
  });
});
