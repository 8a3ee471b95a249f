import {
  expectApiError,
  expectEventShape,
  expectListShape,
  expectNodeShape,
} from './support/contract';
import { type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

const T = 1_763_770_000_000;
const at = (i: number) => T + i * 1_000;
type Item = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ids = (list: { data: Item[] }) => list.data.map((e) => e.id as string);

/** read-api.md 4.5 and section 6: the events list, its cursors, expansions and changes. */
describe('conformance: list events', () => {
  let s: Services;
  let acme: IssuedKey;
  /** Event ids of gph_ev, oldest first. */
  let asc: string[];
  let sent: ReturnType<WatchScript['take']>;
  let otherGraphEvent: string;

  beforeAll(async () => {
    s = await Services.start();
    acme = await s.createKey('acme');
    const script = new WatchScript(T, 1_000)
      .session('S', { title: 'events' }) // 0
      .agent('S/a', 'S', { background: false }) // 1
      .status('S/a', 'idle', 'Resting now\nmore') // 2
      .status('S/a', 'working') // 3
      .agent('S/a/b', 'S/a'); // 4
    for (let i = 5; i < 30; i++) script.activity(i % 2 ? 'S' : 'S/a');
    sent = script.take();
    await s.load(acme, 'ev', sent);
    await s.load(acme, 'ev-other', new WatchScript().session('X').events);
    asc = ids(await s.read('/graphs/gph_ev/events?order=asc&limit=1000', acme.auth));
    otherGraphEvent = ids(await s.read('/graphs/gph_ev-other/events', acme.auth))[0]!;
  }, 90_000);
  afterAll(() => s?.stop());

  const list = (query: string) => s.read(`/graphs/gph_ev/events?${query}`, acme.auth);
  const expand = (...paths: string[]) => paths.map((p) => `expand[]=${p}`).join('&');

  describe('the Event object', () => {
    it('carries id, type, created, graph_id, node_id, source, payload and changes', async () => {
      const all = await list('order=asc&limit=1000');
      expectListShape(all);
      expect(all.data).toHaveLength(30);
      all.data.forEach((e: Item, i: number) => {
        expectEventShape(e);
        expect(e.graph_id).toBe('gph_ev');
        expect([e.type, e.created, e.payload, e.source]).toEqual([
          sent[i]!.type,
          sent[i]!.created,
          sent[i]!.payload,
          sent[i]!.source,
        ]);
      });
    });

    it('records agent.spawned: created: true with state and parent_id, and the parent counts and blocked', async () => {
      const [spawn] = (await list(`order=asc&limit=1&starting_after=${asc[0]}`)).data;
      expect(spawn.type).toBe('agent.spawned');
      const [created, parent] = spawn.changes;
      expect(created.node_id).toBe(spawn.node_id);
      expect(created.created).toBe(true);
      expect(created.fields.state).toEqual({ from: null, to: 'working' });
      const root = (await s.read(`/graphs/gph_ev/nodes?kind=session`, acme.auth)).data[0];
      expect(created.fields.parent_id).toEqual({ from: null, to: root.id });
      for (const v of Object.values(created.fields) as Array<{ from: unknown; to: unknown }>)
        expect(v.from).toBeNull();
      expect(parent).toEqual({
        node_id: root.id,
        created: false,
        fields: expect.objectContaining({
          child_count: { from: 0, to: 1 },
          descendant_count: { from: 0, to: 1 },
          blocked: {
            from: null,
            to: {
              on_ids: [spawn.node_id],
              starting: at(1),
              node_count: 1,
              open_tasks: 0,
              cycle: false,
            },
          },
        }),
      });
    });

    it('records status: state, summary and headline, from and to', async () => {
      const status = (await list(`order=asc&limit=1&starting_after=${asc[1]}`)).data[0];
      expect(status.changes).toEqual([
        {
          node_id: status.node_id,
          created: false,
          fields: {
            state: { from: 'working', to: 'idle' },
            summary: { from: null, to: 'Resting now\nmore' },
            headline: { from: null, to: 'Resting now' },
            last_event: { from: at(1), to: at(2) },
          },
        },
      ]);
    });

    it('lists the ancestors a spawn changes', async () => {
      const spawn = (await list(`order=asc&limit=1&starting_after=${asc[3]}`)).data[0];
      const nodes = (await s.read('/graphs/gph_ev/nodes', acme.auth)).data as Item[];
      const idOf = (ref: string) => nodes.find((n) => n.provider_ref === ref)!.id;
      const byNode = new Map(spawn.changes.map((c: Item) => [c.node_id, c]));
      expect(spawn.changes).toHaveLength(3);
      expect(spawn.changes[0]).toMatchObject({ node_id: idOf('S/a/b'), created: true });
      expect(byNode.get(idOf('S'))).toMatchObject({
        created: false,
        fields: { descendant_count: { from: 1, to: 2 } },
      });
      expect(byNode.get(idOf('S/a'))).toMatchObject({
        created: false,
        fields: { child_count: { from: 0, to: 1 }, descendant_count: { from: 0, to: 1 } },
      });
    });
  });

  describe('order and cursors', () => {
    it('lists newest first by default, oldest first with order=asc', async () => {
      expect(ids(await list('limit=1000'))).toEqual([...asc].reverse());
      expect(ids(await list('order=desc&limit=1000'))).toEqual([...asc].reverse());
    });

    it('defaults limit to 100 and accepts 1 and 1,000', async () => {
      expect((await list('')).data).toHaveLength(30);
      const one = await list('limit=1');
      expect(ids(one)).toEqual([asc[29]]);
      expect(one.has_more).toBe(true);
      expect((await list('limit=1000')).has_more).toBe(false);
    });

    it.each(['0', '1001', '2.5', 'many'])(
      'refuses limit=%s with parameter_invalid param limit',
      async (limit) => {
        expectApiError(await s.get(`/graphs/gph_ev/events?limit=${limit}`, acme.auth), {
          status: 400,
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'limit',
        });
      },
    );

    it('refuses an unknown order with parameter_invalid param order', async () => {
      expectApiError(await s.get('/graphs/gph_ev/events?order=random', acme.auth), {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'order',
      });
    });

    it('pages with starting_after in both orders, and back with ending_before', async () => {
      expect(ids(await list(`order=asc&limit=5&starting_after=${asc[9]}`))).toEqual(
        asc.slice(10, 15),
      );
      expect(ids(await list(`limit=5&starting_after=${asc[9]}`))).toEqual(
        asc.slice(4, 9).reverse(),
      );
      expect(ids(await list(`order=asc&limit=5&ending_before=${asc[9]}`))).toEqual(asc.slice(4, 9));
      expect(ids(await list(`limit=5&ending_before=${asc[9]}`))).toEqual(
        asc.slice(10, 15).reverse(),
      );
      const start = await list(`order=asc&limit=5&ending_before=${asc[3]}`);
      expect(ids(start)).toEqual(asc.slice(0, 3));
      expect(start.has_more).toBe(false);
    });

    it('follows a graph: order=asc after the newest event is empty until a new event arrives', async () => {
      const newest = asc[asc.length - 1]!;
      const empty = await list(`order=asc&starting_after=${newest}`);
      expect(empty.data).toEqual([]);
      expect(empty.has_more).toBe(false);
      await s.load(acme, 'ev-follow', new WatchScript(T).session('F').events);
      const followed = await s.read('/graphs/gph_ev-follow/events', acme.auth);
      const first = followed.data[0].id;
      await s.load(acme, 'ev-follow', new WatchScript(T + 5_000).activity('F', 'next').events);
      const next = await s.read(
        `/graphs/gph_ev-follow/events?order=asc&starting_after=${first}`,
        acme.auth,
      );
      expect(next.data.map((e: Item) => e.payload)).toEqual([{ summary: 'next' }]);
    });

    it('refuses starting_after and ending_before together', async () => {
      const e = expectApiError(
        await s.get(
          `/graphs/gph_ev/events?starting_after=${asc[5]}&ending_before=${asc[1]}`,
          acme.auth,
        ),
        {
          status: 400,
          type: 'invalid_request_error',
          code: 'parameter_invalid',
        },
      );
      expect(['starting_after', 'ending_before']).toContain(e.param);
    });

    it.each([
      ['starting_after', () => otherGraphEvent],
      ['ending_before', () => otherGraphEvent],
      ['starting_after', () => 'evt_nope'],
      ['starting_after', () => 'garbage'],
    ])('answers a %s cursor not in the list with 404 resource_missing', async (cursor, id) => {
      expectApiError(await s.get(`/graphs/gph_ev/events?${cursor}=${id()}`, acme.auth), {
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: cursor,
      });
    });

    it('pins as_of in the url, so following pages stay at that moment while events arrive', async () => {
      await s.load(
        acme,
        'ev-pin',
        new WatchScript(T).session('P').activity('P').activity('P').events,
      );
      const page = await s.read('/graphs/gph_ev-pin/events?limit=2', acme.auth);
      expect(page.url).toContain(`as_of=${page.as_of_event_id}`);
      expect(page.url).toContain('limit=2');
      expect(page.as_of_event_id).toBe(page.data[0].id);
      await s.load(acme, 'ev-pin', new WatchScript(T + 10_000).activity('P', 'new').events);
      const again = await s.read(page.url, acme.auth);
      expect(ids(again)).toEqual(ids(page));
      const rest = await s.read(`${page.url}&starting_after=${page.data[1].id}`, acme.auth);
      expect(rest.data).toHaveLength(1);
      expect(rest.has_more).toBe(false);
      expect(
        (await s.read('/graphs/gph_ev-pin/events?limit=2', acme.auth)).data[0].payload,
      ).toEqual({ summary: 'new' });
    });
  });

  describe('expand[]', () => {
    it('data.node adds each event node as it stood just after the event', async () => {
      const page = await list(`order=asc&limit=4&${expand('data.node')}`);
      expect(decodeURIComponent(page.url)).toContain('expand[]=data.node');
      const states = page.data.map((e: Item) => {
        expect(Object.keys(e)).toContain('data');
        expectNodeShape(e.data.node);
        expect(e.data.node.id).toBe(e.node_id);
        expect(e.data.node.as_of_event_id).toBe(e.id);
        return e.data.node.state;
      });
      expect(states).toEqual(['working', 'working', 'idle', 'working']);
      expect(page.data[2].data.node.headline).toBe('Resting now');
      expect(page.data[0].data.node.child_count).toBe(0);
    });

    it("expands the node's own fields: data.node.parent, 4 levels deep", async () => {
      const [spawn] = (
        await list(
          `order=asc&limit=1&starting_after=${asc[3]}&${expand('data.node.parent.parent')}`,
        )
      ).data;
      expect(spawn.data.node.parent.provider_ref).toBe('S/a');
      expect(spawn.data.node.parent.parent.provider_ref).toBe('S');
      expect(spawn.data.node.parent.parent.child_count).toBe(1);
    });

    it('refuses 5 levels with 400 expand_too_deep, param expand', async () => {
      expectApiError(
        await s.get(`/graphs/gph_ev/events?${expand('data.node.parent.parent.parent')}`, acme.auth),
        {
          status: 400,
          type: 'invalid_request_error',
          code: 'expand_too_deep',
          param: 'expand',
        },
      );
    });

    const paths = [
      'data.node',
      ...[
        'parent',
        'root',
        'session',
        'requested_by',
        'children',
        'descendants',
        'tasks',
        'spawns',
        'waits',
        'messages',
      ].map((p) => `data.node.${p}`),
      ...[
        'parent',
        'root',
        'session',
        'requested_by',
        'children',
        'tasks',
        'spawns',
        'waits',
        'messages',
        'descendants',
      ].map((p) => `data.node.parent.${p}`),
    ];

    it('accepts 20 paths', async () => {
      const res = await s.get(
        `/graphs/gph_ev/events?limit=3&${expand(...paths.slice(0, 20))}`,
        acme.auth,
      );
      expect(res.status).toBe(200);
      expect(res.body.data[0].data.node.root.id).toMatch(/^node_/);
    });

    it('refuses 21 paths with 400, param expand', async () => {
      expect(paths).toHaveLength(21);
      expectApiError(await s.get(`/graphs/gph_ev/events?${expand(...paths)}`, acme.auth), {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'expand',
      });
    });

    it.each(['node', 'data', 'data.colour', 'data.node.colour'])(
      'refuses the path %j with parameter_invalid',
      async (path) => {
        expectApiError(await s.get(`/graphs/gph_ev/events?${expand(path)}`, acme.auth), {
          status: 400,
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'expand',
        });
      },
    );
  });

  describe('conditional reads', () => {
    it('sends an ETag, 304 on a match, a new tag once an event arrives', async () => {
      await s.load(acme, 'ev-etag', new WatchScript(T).session('E').events);
      const first = await s.get('/graphs/gph_ev-etag/events', acme.auth);
      expect(first.headers.etag).toMatch(/^"[^"]+"$/);
      const same = await s.get('/graphs/gph_ev-etag/events', acme.auth, {
        headers: { 'if-none-match': first.headers.etag as string },
      });
      expect(same.status).toBe(304);
      await s.load(acme, 'ev-etag', new WatchScript(T + 1_000).activity('E').events);
      const changed = await s.get('/graphs/gph_ev-etag/events', acme.auth, {
        headers: { 'if-none-match': first.headers.etag as string },
      });
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).not.toBe(first.headers.etag);
    });
  });
});
