import { ApiHarness, Json } from './support/api-harness';
import { previousEventId } from './support/event-ids';
import { EventScript } from './support/watch-events';

/** GET /graphs/{id}/events: order, cursors both ways, retention, data.node, url. */
describe('read API: events', () => {
  let h: ApiHarness;
  let asc: { id: string; type: string; node_id: string; created: number }[];
  const T = 1_700_000_000_000;

  beforeAll(async () => {
    h = await ApiHarness.start();
    const s = new EventScript(T);
    s.session('s')
      .agent('s/a', 's')
      .status('s/a', 'idle', 'resting')
      .agent('s/b', 's/a')
      .ended('s/b');
    await h.seed('e', s.events);
    const long = new EventScript(T, 10);
    long.session('l');
    for (let i = 1; i < 2_300; i++) long.activity('l');
    await h.seed('long', long.events);
    asc = (await h.get('/api/v1/graphs/gph_e/events?order=asc')).json.data;
  });
  afterAll(() => h.stop());

  const events = (query = '') => h.get(`/api/v1/graphs/gph_e/events${query}`);
  const ids = (r: { json: Json }) => r.json.data.map((e: { id: string }) => e.id);

  it('lists events newest first by default, with their changes', async () => {
    const r = await events();
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(asc.map((e) => e.id).reverse());
    expect(r.json).toMatchObject({ object: 'list', has_more: false, as_of_event_id: asc[4]!.id });
    expect(r.json.url).toBe(`/api/v1/graphs/gph_e/events?order=desc&as_of=${asc[4]!.id}&limit=100`);
    const spawn = r.json.data.find((e: { type: string }) => e.type === 'agent.spawned');
    expect(spawn).toMatchObject({
      object: 'event',
      graph_id: 'gph_e',
      source: { provider: 'claude-code', provider_version: '2.0.14', adapter: 'test/1' },
      payload: { parent: 's/a', agent_type: 'general' },
    });
    expect(spawn.changes[0]).toMatchObject({
      node_id: spawn.node_id,
      created: true,
      fields: { state: { from: null, to: 'working' } },
    });
    expect(spawn.changes.slice(1).map((c: { created: boolean }) => c.created)).toEqual(
      spawn.changes.slice(1).map(() => false),
    );
    expect(spawn).not.toHaveProperty('data');
  });

  it('pages both ways in both orders', async () => {
    const all = asc.map((e) => e.id);
    const a1 = await events('?order=asc&limit=2');
    expect(ids(a1)).toEqual(all.slice(0, 2));
    expect(a1.json.has_more).toBe(true);
    expect(ids(await events(`?order=asc&limit=2&starting_after=${all[1]}`))).toEqual(
      all.slice(2, 4),
    );
    const aLast = await events(`?order=asc&limit=2&starting_after=${all[3]}`);
    expect(ids(aLast)).toEqual([all[4]]);
    expect(aLast.json.has_more).toBe(false);
    const aBack = await events(`?order=asc&limit=2&ending_before=${all[3]}`);
    expect(ids(aBack)).toEqual(all.slice(1, 3));
    expect(aBack.json.has_more).toBe(true);
    const d1 = await events(`?limit=2&starting_after=${all[3]}`);
    expect(ids(d1)).toEqual([all[2], all[1]]);
    expect(d1.json.has_more).toBe(true);
    const dBack = await events(`?limit=2&ending_before=${all[1]}`);
    expect(ids(dBack)).toEqual([all[3], all[2]]);
    expect(dBack.json.has_more).toBe(true);
    const dTop = await events(`?limit=2&ending_before=${all[3]}`);
    expect(ids(dTop)).toEqual([all[4]]);
    expect(dTop.json.has_more).toBe(false);
    // following: nothing newer than the newest
    const follow = await events(`?order=asc&starting_after=${all[4]}`);
    expect(follow.json.data).toEqual([]);
  });

  it('pins as_of: only events up to it are listed', async () => {
    const r = await events(`?as_of=${asc[2]!.id}`);
    expect(ids(r)).toEqual([asc[2]!.id, asc[1]!.id, asc[0]!.id]);
    expect(r.json.as_of_event_id).toBe(asc[2]!.id);
    const beyond = await events(`?as_of=${asc[2]!.id}&ending_before=${asc[3]!.id}`);
    expect(beyond.json.error).toMatchObject({ code: 'resource_missing', param: 'ending_before' });
  });

  it('answers a trimmed cursor with 410 and the retained bounds, a foreign one with 404', async () => {
    const graph = (await h.get('/api/v1/graphs/gph_long')).json;
    const oldest = (await h.get('/api/v1/graphs/gph_long/events?order=asc&limit=1')).json.data[0];
    expect(oldest.id).toBe(graph.retention.first_event_id);
    const foreign = await h.get(`/api/v1/graphs/gph_long/events?starting_after=${asc[0]!.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    expect(graph.retention.event_count).toBeLessThan(2_300);
    const trimmedId = previousEventId(graph.retention.first_event_id);
    const r = await h.get(`/api/v1/graphs/gph_long/events?order=asc&starting_after=${trimmedId}`);
    expect(r.status).toBe(410);
    expect(r.json.error).toMatchObject({
      code: 'outside_retention_window',
      param: 'starting_after',
      first_event_id: graph.retention.first_event_id,
      last_event_id: graph.retention.last_event_id,
    });
  });

  it('expands data.node: each event’s node as it stood just after the event', async () => {
    const r = await events('?order=asc&expand[]=data.node&expand[]=data.node.parent');
    const nodes = r.json.data.map((e: { data: { node: Json } }) => e.data.node);
    expect(nodes.map((n: { as_of_event_id: string }) => n.as_of_event_id)).toEqual(
      asc.map((e) => e.id),
    );
    expect(nodes.map((n: { id: string }) => n.id)).toEqual(asc.map((e) => e.node_id));
    expect(nodes[1]).toMatchObject({ provider_ref: 's/a', state: 'working' });
    expect(nodes[2]).toMatchObject({ provider_ref: 's/a', state: 'idle', summary: 'resting' });
    expect(nodes[4]).toMatchObject({ provider_ref: 's/b', state: 'completed' });
    expect(nodes[0]).not.toHaveProperty('parent');
    expect(nodes[3].parent).toMatchObject({
      provider_ref: 's/a',
      as_of_event_id: asc[3]!.id,
      child_count: 1,
    });
    expect(r.json.url).toContain('&expand[]=data.node&expand[]=data.node.parent');
  });

  it('limits expand paths on events to 4 levels, and refuses others', async () => {
    expect((await events('?expand[]=data.node.parent.parent')).status).toBe(200);
    const deep = await events('?expand[]=data.node.parent.parent.parent');
    expect(deep.json.error).toMatchObject({ code: 'expand_too_deep', param: 'expand' });
    for (const path of ['data', 'node', 'data.nodes', 'data.node.bogus']) {
      expect((await events(`?expand[]=${path}`)).json.error).toMatchObject({
        code: 'parameter_invalid',
        param: 'expand',
      });
    }
  });
});
