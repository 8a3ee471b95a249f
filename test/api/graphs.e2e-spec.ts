import { ApiHarness, Json } from './support/api-harness';
import { nextEventId, previousEventId } from './support/event-ids';
import { EventScript } from './support/watch-events';

/** GET /graphs and GET /graphs/{id}: counts as of a moment, retention, as_of rules, list order. */
describe('read API: graphs', () => {
  let h: ApiHarness;
  const T = 1_700_000_000_000;

  beforeAll(async () => {
    h = await ApiHarness.start();
    // g1: a session, then two agents, one of which completes
    const s = new EventScript(T, 1_000);
    s.session('s').agent('s/a', 's').agent('s/b', 's').ended('s/b');
    await h.seed('g1', s.events);
    // long: 2,500 events, so retention has cut the oldest
    const long = new EventScript(T, 100);
    long.session('l');
    for (let i = 1; i < 2_500; i++) long.activity('l');
    await h.seed('long', long.events);
    // list ordering: last events at T+100s, T+200s (twice), none for another account
    await h.seed('b-graph', new EventScript(T + 200_000).session('x').events);
    await h.seed('a-graph', new EventScript(T + 200_000).session('y').events);
    await h.seed('c-graph', new EventScript(T + 100_000).session('z').events);
    await h.seed('other', new EventScript(T + 900_000).session('o').events, 'globex');
  });
  afterAll(() => h.stop());

  const graph = (id: string, query = '') => h.get(`/api/v1/graphs/${id}${query}`);

  it('returns the graph now, with counts after its newest event', async () => {
    const r = await graph('gph_g1');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: 'gph_g1',
      object: 'graph',
      source: 'watch',
      url: expect.stringMatching(/\/graphs\/gph_g1$/),
      created: expect.any(Number),
      last_event: T + 3_000,
      retention: { event_count: 4, first_event_created: T, last_event_created: T + 3_000 },
      counts: {
        nodes: 3,
        sessions: 1,
        agents: 2,
        stale: 2,
        blocked: 0,
        by_state: { working: 2, input_required: 0, idle: 0, completed: 1, failed: 0, canceled: 0 },
      },
    });
    expect(r.json.as_of_event_id).toBe(r.json.retention.last_event_id);
    expect(Object.keys(r.json)).toEqual([
      'id',
      'object',
      'as_of_event_id',
      'source',
      'url',
      'created',
      'last_event',
      'retention',
      'counts',
      'usage',
    ]);
  });

  it('reads as of an event id: state just after that event', async () => {
    const events = (await h.get('/api/v1/graphs/gph_g1/events?order=asc')).json.data;
    const r = await graph('gph_g1', `?as_of=${events[1].id}`);
    expect(r.json.as_of_event_id).toBe(events[1].id);
    expect(r.json.last_event).toBe(T + 1_000);
    expect(r.json.counts).toMatchObject({
      nodes: 2,
      agents: 1,
      by_state: { working: 2, completed: 0 },
    });
    // retention is always the span held now
    expect(r.json.retention.event_count).toBe(4);
  });

  it('reads as of a time: state after the last event at or before it', async () => {
    const events = (await h.get('/api/v1/graphs/gph_g1/events?order=asc')).json.data;
    expect((await graph('gph_g1', `?as_of=${T + 1_999}`)).json.as_of_event_id).toBe(events[1].id);
    expect((await graph('gph_g1', `?as_of=${T + 2_000}`)).json.as_of_event_id).toBe(events[2].id);
    expect((await graph('gph_g1', `?as_of=${T}`)).json.counts.nodes).toBe(1);
  });

  it('refuses as_of outside retention with 410 and the retained bounds', async () => {
    const g = (await graph('gph_long')).json;
    expect(g.retention.event_count).toBeGreaterThanOrEqual(1_000);
    expect(g.retention.event_count).toBeLessThanOrEqual(2_000);
    const first = (await h.get(`/api/v1/graphs/gph_long/events?order=asc&limit=1`)).json.data[0];
    expect(first.id).toBe(g.retention.first_event_id);
    const expect410 = (r: { status: number; json: Json }) => {
      expect(r.status).toBe(410);
      expect(r.json.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'outside_retention_window',
        param: 'as_of',
        first_event_id: g.retention.first_event_id,
        last_event_id: g.retention.last_event_id,
      });
    };
    expect410(await graph('gph_long', `?as_of=${first.created - 1}`));
    expect410(await graph('gph_long', `?as_of=${previousEventId(g.retention.first_event_id)}`));
    expect410(await graph('gph_long', `?as_of=${T}`));
    const oldest = await graph('gph_long', `?as_of=${g.retention.first_event_id}`);
    expect(oldest.status).toBe(200);
    expect((await graph('gph_long', `?as_of=${first.created}`)).json.as_of_event_id).toBe(first.id);
    const g1Events = (await h.get('/api/v1/graphs/gph_g1/events?order=asc')).json.data;
    // an event id of graph g1 is not an event of graph long
    const cross = await graph('gph_long', `?as_of=${g1Events[0].id}`);
    expect(cross.status).toBe(404);
    expect(cross.json.error).toMatchObject({ code: 'resource_missing', param: 'as_of' });
  });

  it('treats a future time and anything but a time or an event id as invalid', async () => {
    const g = (await graph('gph_long')).json;
    const future = await graph('gph_long', `?as_of=${Date.now() + 60_000}`);
    expect(future.status).toBe(400);
    expect(future.json.error).toMatchObject({ code: 'parameter_invalid', param: 'as_of' });
    for (const bad of ['yesterday', '-5', '1e12', 'node_110001']) {
      const r = await graph('gph_long', `?as_of=${bad}`);
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'parameter_invalid', param: 'as_of' });
    }
    const malformedEvent = await graph('gph_long', '?as_of=evt_zz');
    expect(malformedEvent.json.error).toMatchObject({ code: 'resource_missing', param: 'as_of' });
    expect(g.as_of_event_id).toBe(g.retention.last_event_id);
  });

  it('refuses an event id beyond the newest event as resource_missing', async () => {
    const newest: string = (await graph('gph_g1')).json.as_of_event_id;
    const r = await graph('gph_g1', `?as_of=${nextEventId(newest)}`);
    expect(r.status).toBe(404);
    expect(r.json.error).toMatchObject({ code: 'resource_missing', param: 'as_of' });
  });

  describe('list', () => {
    const ids = (r: { json: Json }) => r.json.data.map((g: { id: string }) => g.id);

    it('lists the account’s graphs, most recently active first, then by id', async () => {
      const r = await h.get('/api/v1/graphs');
      expect(r.json).toMatchObject({
        object: 'list',
        as_of_event_id: null,
        has_more: false,
        url: '/api/v1/graphs?limit=100',
      });
      expect(ids(r)).toEqual(['gph_long', 'gph_a-graph', 'gph_b-graph', 'gph_c-graph', 'gph_g1']);
      for (const g of r.json.data) expect(g.as_of_event_id).toBe(g.retention.last_event_id);
    });

    it('filters on last_event[gt|gte|lt|lte] at both edges and repeats the filters in url', async () => {
      const at = T + 200_000;
      expect(
        ids(await h.get(`/api/v1/graphs?last_event[gte]=${at}&last_event[lt]=${at + 1}`)),
      ).toEqual(['gph_a-graph', 'gph_b-graph']);
      expect(
        ids(await h.get(`/api/v1/graphs?last_event[gt]=${at}&last_event[lte]=${at + 10_000_000}`)),
      ).toEqual(['gph_long']);
      expect(
        ids(await h.get(`/api/v1/graphs?last_event[lte]=${at}&last_event[gt]=${T + 100_000}`)),
      ).toEqual(['gph_a-graph', 'gph_b-graph']);
      const r = await h.get(`/api/v1/graphs?last_event[lte]=${at}&limit=2`);
      expect(ids(r)).toEqual(['gph_a-graph', 'gph_b-graph']);
      expect(r.json.has_more).toBe(true);
      expect(r.json.url).toBe(`/api/v1/graphs?last_event[lte]=${at}&limit=2`);
    });

    it('pages with starting_after and ending_before', async () => {
      const p1 = await h.get('/api/v1/graphs?limit=2');
      expect(ids(p1)).toEqual(['gph_long', 'gph_a-graph']);
      expect(p1.json.has_more).toBe(true);
      const p2 = await h.get('/api/v1/graphs?limit=2&starting_after=gph_a-graph');
      expect(ids(p2)).toEqual(['gph_b-graph', 'gph_c-graph']);
      expect(p2.json.has_more).toBe(true);
      const p3 = await h.get('/api/v1/graphs?limit=2&starting_after=gph_c-graph');
      expect(ids(p3)).toEqual(['gph_g1']);
      expect(p3.json.has_more).toBe(false);
      const back = await h.get('/api/v1/graphs?limit=2&ending_before=gph_c-graph');
      expect(ids(back)).toEqual(['gph_a-graph', 'gph_b-graph']);
      expect(back.json.has_more).toBe(true);
      const first = await h.get('/api/v1/graphs?limit=2&ending_before=gph_a-graph');
      expect(ids(first)).toEqual(['gph_long']);
      expect(first.json.has_more).toBe(false);
    });

    it('refuses a cursor that is not in the list', async () => {
      for (const cursor of ['gph_other', 'gph_nope', 'node_110001']) {
        const r = await h.get(`/api/v1/graphs?starting_after=${cursor}`);
        expect(r.status).toBe(404);
        expect(r.json.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
      }
      const filteredOut = await h.get(
        `/api/v1/graphs?last_event[lt]=${T + 150_000}&ending_before=gph_long`,
      );
      expect(filteredOut.json.error).toMatchObject({
        code: 'resource_missing',
        param: 'ending_before',
      });
    });

    it('shows only watch graphs in this version', async () => {
      await h.seed('pasted', new EventScript(T + 300_000).session('p').events);
      expect(ids(await h.get('/api/v1/graphs?limit=1'))).toEqual(['gph_pasted']);
      await h.t.db
        .updateTable('graphs')
        .set({ source: 'paste' })
        .where('graph_key', '=', 'pasted')
        .execute();
      expect(ids(await h.get('/api/v1/graphs'))).not.toContain('gph_pasted');
      const r = await graph('gph_pasted');
      expect(r.status).toBe(404);
      expect(r.json.error).toMatchObject({ code: 'resource_missing', param: 'graph_id' });
    });

    it('enforces limit 1 to 1,000', async () => {
      for (const limit of ['0', '1001']) {
        const r = await h.get(`/api/v1/graphs?limit=${limit}`);
        expect(r.status).toBe(400);
        expect(r.json.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
      }
      expect(ids(await h.get('/api/v1/graphs?limit=1'))).toEqual(['gph_long']);
      expect(ids(await h.get('/api/v1/graphs?limit=1000'))).toHaveLength(5);
    });
  });
});
