import { decodeId, encodeReadableId, type IdPrefix } from '@graph-history/domain';
import { ApiHarness, Json } from './support/api-harness';
import { EventScript } from './support/watch-events';

/** GET /graphs/{id}/nodes/{id} and GET /graphs/{id}/nodes: as_of, expansions, filters, order, cursors. */
describe('read API: nodes', () => {
  let h: ApiHarness;
  let evt: string[]; // evt[1] is the first event
  let id: Record<string, string>; // node ids by ref
  const T = 1_700_000_000_000;

  beforeAll(async () => {
    h = await ApiHarness.start();
    const s = new EventScript(T);
    s.session('s', { title: 'main', cwd: '/w' }) // 1
      .agent('s/a', 's', { background: false, spawn_call_id: 'call_1' }) // 2
      .agent('s/b', 's') // 3
      .agent('s/c', 's/b', { requested_by: 's/a' }) // 4
      .agent('s/d', 's/a') // 5
      .tasks('s/a', [
        { content: 'first', status: 'pending' },
        { id: 'two', content: 'second', status: 'completed' },
      ]) // 6
      .waitStarted('s/b', ['s/c'], 'needs c') // 7
      .message('s/a', 's/b', 'hello') // 8
      .status('s/a', 'idle', 'summary line\nmore') // 9
      .ended('s/c'); // 10
    await h.seed('n', s.events);
    await h.seed('other', new EventScript().session('o').events);
    evt = [
      '',
      ...(await h.get('/api/v1/graphs/gph_n/events?order=asc')).json.data.map(
        (e: { id: string }) => e.id,
      ),
    ];
    const nodes = (await h.get('/api/v1/graphs/gph_n/nodes')).json.data;
    id = Object.fromEntries(
      nodes.map((n: { provider_ref: string; id: string }) => [n.provider_ref, n.id]),
    );
  });
  afterAll(() => h.stop());

  const node = (ref: string, query = '') => h.get(`/api/v1/graphs/gph_n/nodes/${id[ref]}${query}`);
  const list = (query = '') => h.get(`/api/v1/graphs/gph_n/nodes${query}`);
  const refs = (r: { json: Json }) =>
    r.json.data.map((n: { provider_ref: string }) => n.provider_ref);
  const itemRefs = (l: { data: { id: string }[] }) =>
    l.data.map((n) => Object.keys(id).find((k) => id[k] === n.id));

  describe('retrieve', () => {
    it('returns the node with every field, as of now', async () => {
      const r = await node('s/a');
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        id: id['s/a'],
        object: 'node',
        as_of_event_id: evt[10],
        graph_id: 'gph_n',
        provider_ref: 's/a',
        provider: 'claude-code',
        kind: 'agent',
        parent_id: id.s,
        root_id: id.s,
        session_id: id.s,
        requested_by_id: id.s,
        depth: 1,
        state: 'idle',
        stale: false,
        summary: 'summary line\nmore',
        headline: 'summary line',
        background: false,
        spawn_call_id: 'call_1',
        link_method: 'spawn_call_id',
        created: T + 1_000,
        ended: null,
        child_count: 1,
        descendant_count: 1,
        task_counts: { total: 2, pending: 1, in_progress: 0, completed: 1, open: 1 },
      });
      expect(r.json).not.toHaveProperty('parent');
    });

    it('returns the node as it stood at as_of (event id or time)', async () => {
      expect((await node('s/a', `?as_of=${evt[5]}`)).json).toMatchObject({
        as_of_event_id: evt[5],
        state: 'working',
        task_counts: { total: 0 },
      });
      expect((await node('s/a', `?as_of=${T + 5_500}`)).json).toMatchObject({
        as_of_event_id: evt[6],
        task_counts: { total: 2 },
      });
      expect((await node('s', `?as_of=${evt[2]}`)).json.blocked).toMatchObject({
        on_ids: [id['s/a']],
        cycle: false,
      });
    });

    it('answers 404 node_not_yet_created with the creating event', async () => {
      const r = await node('s/d', `?as_of=${evt[3]}`);
      expect(r.status).toBe(404);
      expect(r.json.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'node_not_yet_created',
        param: 'as_of',
        first_event_id: evt[5],
      });
    });

    it('gives opaque ids only, and reads a node and an event by their ids of the older, readable form', async () => {
      const readable = (prefix: IdPrefix, sealed: string) => {
        const d = decodeId(prefix, sealed)!;
        return encodeReadableId(prefix, d.graphId, d.n);
      };
      const everyId = (text: string) =>
        [...text.matchAll(/"((?:node|evt)_[^"]*)"/g)].map((m) => m[1]!);
      const byNew = await node('s/c', `?as_of=${evt[9]}`);
      const ids = everyId(byNew.body);
      expect(ids.length).toBeGreaterThan(4);
      for (const i of ids) expect(i).toMatch(/^(node|evt)_[A-Za-z0-9_-]{22}$/);

      const oldNode = readable('node', id['s/c']!);
      const oldEvt = readable('evt', evt[9]!);
      expect(oldNode).toMatch(/^node_[0-9a-z]+$/);
      const byOld = await h.get(`/api/v1/graphs/gph_n/nodes/${oldNode}?as_of=${oldEvt}`);
      expect(byOld.status).toBe(200);
      expect(byOld.json).toEqual(byNew.json);
      expect(byOld.json.id).toBe(id['s/c']);
      expect(byOld.json.as_of_event_id).toBe(evt[9]);

      const events = (after: string) =>
        h.get(`/api/v1/graphs/gph_n/events?order=asc&limit=2&starting_after=${after}`);
      const page = await events(evt[3]!);
      expect(page.json.data.map((e: { id: string }) => e.id)).toEqual([evt[4], evt[5]]);
      expect((await events(readable('evt', evt[3]!))).json.data).toEqual(page.json.data);
    });

    it('answers 404 resource_missing for unknown nodes and nodes of other graphs', async () => {
      const otherNode = (await h.get('/api/v1/graphs/gph_other/nodes')).json.data[0].id;
      for (const bad of ['node_zzzz', 'nope', otherNode, 'node_11zzzz']) {
        const r = await h.get(`/api/v1/graphs/gph_n/nodes/${bad}`);
        expect(r.status).toBe(404);
        expect(r.json.error).toMatchObject({ code: 'resource_missing', param: 'node_id' });
      }
    });

    it('expands parent, root, session and requested_by beside their ids, absent when null', async () => {
      const c = (
        await node('s/c', '?expand[]=parent&expand[]=root&expand[]=session&expand[]=requested_by')
      ).json;
      expect(Object.keys(c).slice(7, 15)).toEqual([
        'parent_id',
        'parent',
        'root_id',
        'root',
        'session_id',
        'session',
        'requested_by_id',
        'requested_by',
      ]);
      expect(c.parent).toMatchObject({ id: id['s/b'], object: 'node', as_of_event_id: evt[10] });
      expect(c.root.id).toBe(id.s);
      expect(c.session.id).toBe(id.s);
      expect(c.requested_by.id).toBe(id['s/a']);
      const s = (await node('s', '?expand[]=parent&expand[]=requested_by&expand[]=root')).json;
      expect(s).not.toHaveProperty('parent');
      expect(s).not.toHaveProperty('requested_by');
      expect(s.root.id).toBe(id.s);
    });

    it('expands blocked.on beside blocked.on_ids', async () => {
      const b = (await node('s/b', `?as_of=${evt[7]}&expand[]=blocked.on`)).json;
      expect(b.blocked.on_ids).toEqual([id['s/c']]);
      expect(b.blocked.on).toMatchObject({
        object: 'list',
        has_more: false,
        as_of_event_id: evt[7],
      });
      expect(itemRefs(b.blocked.on)).toEqual(['s/c']);
      expect((await node('s/b', '?expand[]=blocked.on')).json.blocked).toBeNull();
    });

    it('expands children (oldest first) and descendants (tree order) with urls pinned to the moment', async () => {
      const s = (await node('s', `?as_of=${evt[9]}&expand[]=children&expand[]=descendants`)).json;
      expect(itemRefs(s.children)).toEqual(['s/a', 's/b']);
      expect(s.children).toMatchObject({
        has_more: false,
        as_of_event_id: evt[9],
        url: `/api/v1/graphs/gph_n/nodes?parent_id=${id.s}&as_of=${evt[9]}`,
      });
      expect(itemRefs(s.descendants)).toEqual(['s/a', 's/d', 's/b', 's/c']);
      expect(s.descendants.url).toBe(
        `/api/v1/graphs/gph_n/nodes?ancestor_id=${id.s}&order=tree&as_of=${evt[9]}&limit=1000`,
      );
      const shallow = (await node('s', '?expand[]=descendants&descendants_max_depth=1')).json;
      expect(itemRefs(shallow.descendants)).toEqual(['s/a', 's/b']);
      expect(shallow.descendants.url).toContain('max_depth=1');
    });

    it('expands tasks, spawns, waits and messages as lists as of the moment', async () => {
      const a = (await node('s/a', '?expand[]=tasks&expand[]=spawns&expand[]=messages')).json;
      expect(a.tasks.data).toEqual([
        {
          object: 'task',
          id: expect.any(String),
          content: 'first',
          status: 'pending',
          active_form: null,
          created: T + 5_000,
          updated: T + 5_000,
        },
        {
          object: 'task',
          id: 'two',
          content: 'second',
          status: 'completed',
          active_form: null,
          created: T + 5_000,
          updated: T + 5_000,
        },
      ]);
      expect(a.spawns.data).toEqual([
        {
          object: 'spawn',
          spawn_call_id: null,
          node_id: id['s/c'],
          agent_type: 'general',
          purpose: 'work of s/c',
          background: true,
          created: T + 3_000,
        },
        {
          object: 'spawn',
          spawn_call_id: null,
          node_id: id['s/d'],
          agent_type: 'general',
          purpose: 'work of s/d',
          background: true,
          created: T + 4_000,
        },
      ]);
      expect(a.messages.data).toEqual([
        {
          object: 'message',
          id: expect.any(String),
          direction: 'sent',
          from_id: id['s/a'],
          to_id: id['s/b'],
          created: T + 7_000,
          text: 'hello',
        },
      ]);
      expect(a.tasks.url).toBe(
        `/api/v1/graphs/gph_n/nodes/${id['s/a']}?as_of=${evt[10]}&expand[]=tasks`,
      );
      expect((await node('s/b', '?expand[]=messages')).json.messages.data[0].direction).toBe(
        'received',
      );
      expect((await node('s/a', `?as_of=${evt[5]}&expand[]=tasks`)).json.tasks.data).toEqual([]);
      const waitOpen = (await node('s/b', `?as_of=${evt[9]}&expand[]=waits`)).json.waits.data;
      expect(waitOpen).toEqual([
        { object: 'wait', on_id: id['s/c'], reason: 'needs c', started: T + 6_000, ended: null },
      ]);
      const waitEnded = (await node('s/b', '?expand[]=waits')).json.waits.data;
      expect(waitEnded).toEqual([
        {
          object: 'wait',
          on_id: id['s/c'],
          reason: 'needs c',
          started: T + 6_000,
          ended: T + 9_000,
        },
      ]);
      const sSpawns = (await node('s', '?expand[]=spawns')).json.spawns.data.map(
        (x: { node_id: string }) => x.node_id,
      );
      expect(sSpawns).toEqual([id['s/a'], id['s/b']]);
    });

    it('expands dotted paths up to 4 levels; 5 is expand_too_deep', async () => {
      const c = (await node('s/c', '?expand[]=parent.parent.children.tasks')).json;
      expect(c.parent.parent.id).toBe(id.s);
      expect(
        c.parent.parent.children.data.map((n: { tasks: unknown }) => n.tasks !== undefined),
      ).toEqual([true, true]);
      expect((await node('s/c', '?expand[]=root.tasks')).json.root.tasks.object).toBe('list');
      const deep = await node('s/c', '?expand[]=parent.parent.parent.parent.parent');
      expect(deep.status).toBe(400);
      expect(deep.json.error).toMatchObject({ code: 'expand_too_deep', param: 'expand' });
      const blockedDeep = await node('s/c', '?expand[]=blocked.on.parent.parent');
      expect(blockedDeep.status).toBe(200);
      expect((await node('s/c', '?expand[]=blocked.on.parent.parent.root')).json.error.code).toBe(
        'expand_too_deep',
      );
    });

    it('refuses unknown and non-expandable paths, and descendants_max_depth without descendants', async () => {
      for (const path of [
        'bogus',
        'tasks.parent',
        'blocked',
        'parent.',
        'data.parent',
        'children.data',
      ]) {
        const r = await node('s', `?expand[]=${path}`);
        expect(r.status).toBe(400);
        expect(r.json.error).toMatchObject({ code: 'parameter_invalid', param: 'expand' });
      }
      const r = await node('s', '?expand[]=children&descendants_max_depth=2');
      expect(r.json.error).toMatchObject({
        code: 'parameter_invalid',
        param: 'descendants_max_depth',
      });
    });
  });

  describe('list', () => {
    it('lists as of now in creation order by default, pinning as_of in url', async () => {
      const r = await list();
      expect(refs(r)).toEqual(['s', 's/a', 's/b', 's/c', 's/d']);
      expect(r.json).toMatchObject({
        object: 'list',
        as_of_event_id: evt[10],
        has_more: false,
        url: `/api/v1/graphs/gph_n/nodes?as_of=${evt[10]}&limit=100`,
      });
      expect(refs(await list(`?as_of=${evt[3]}`))).toEqual(['s', 's/a', 's/b']);
    });

    it('orders by tree (pre-order, children oldest first)', async () => {
      expect(refs(await list('?order=tree'))).toEqual(['s', 's/a', 's/d', 's/b', 's/c']);
      expect(refs(await list('?order=created'))).toEqual(['s', 's/a', 's/b', 's/c', 's/d']);
    });

    it('filters by parent_id, ancestor_id with max_depth, kind and state', async () => {
      expect(refs(await list(`?parent_id=${id.s}`))).toEqual(['s/a', 's/b']);
      expect(refs(await list(`?parent_id=${id['s/a']}`))).toEqual(['s/d']);
      expect(refs(await list(`?ancestor_id=${id.s}`))).toEqual(['s/a', 's/b', 's/c', 's/d']);
      expect(refs(await list(`?ancestor_id=${id.s}&order=tree`))).toEqual([
        's/a',
        's/d',
        's/b',
        's/c',
      ]);
      expect(refs(await list(`?ancestor_id=${id.s}&max_depth=1&order=tree`))).toEqual([
        's/a',
        's/b',
      ]);
      expect(refs(await list(`?ancestor_id=${id['s/b']}`))).toEqual(['s/c']);
      expect(refs(await list('?kind=session'))).toEqual(['s']);
      expect(refs(await list('?kind=agent&state=working'))).toEqual(['s/b', 's/d']);
      expect(refs(await list('?state=completed'))).toEqual(['s/c']);
      expect(refs(await list(`?state=completed&as_of=${evt[9]}`))).toEqual([]);
      const r = await list(`?ancestor_id=${id.s}&max_depth=2&kind=agent&order=tree`);
      expect(r.json.url).toBe(
        `/api/v1/graphs/gph_n/nodes?ancestor_id=${id.s}&max_depth=2&order=tree&kind=agent&as_of=${evt[10]}&limit=100`,
      );
    });

    it('refuses bad filters', async () => {
      const noAncestor = await list('?max_depth=2');
      expect(noAncestor.json.error).toMatchObject({
        code: 'parameter_invalid',
        param: 'max_depth',
      });
      expect((await list('?kind=robot')).json.error).toMatchObject({
        code: 'parameter_invalid',
        param: 'kind',
      });
      expect((await list('?state=sleeping')).json.error).toMatchObject({
        code: 'parameter_invalid',
        param: 'state',
      });
      expect((await list('?order=random')).json.error).toMatchObject({
        code: 'parameter_invalid',
        param: 'order',
      });
      expect((await list('?parent_id=node_zzzz')).json.error).toMatchObject({
        code: 'resource_missing',
        param: 'parent_id',
      });
      const early = await list(`?parent_id=${id['s/d']}&as_of=${evt[3]}`);
      expect(early.json.error).toMatchObject({
        code: 'node_not_yet_created',
        first_event_id: evt[5],
      });
      expect((await list('?expand[]=children')).json.error).toMatchObject({
        code: 'parameter_invalid',
        param: 'expand',
      });
    });

    it('pages both ways with cursors, in either order', async () => {
      const p1 = await list('?limit=2');
      expect(refs(p1)).toEqual(['s', 's/a']);
      expect(p1.json.has_more).toBe(true);
      const p2 = await list(`?limit=2&starting_after=${id['s/a']}`);
      expect(refs(p2)).toEqual(['s/b', 's/c']);
      expect(p2.json.has_more).toBe(true);
      const p3 = await list(`?limit=2&starting_after=${id['s/c']}`);
      expect(refs(p3)).toEqual(['s/d']);
      expect(p3.json.has_more).toBe(false);
      const back = await list(`?limit=2&ending_before=${id['s/c']}`);
      expect(refs(back)).toEqual(['s/a', 's/b']);
      expect(back.json.has_more).toBe(true);
      expect(refs(await list(`?order=tree&limit=2&starting_after=${id['s/a']}`))).toEqual([
        's/d',
        's/b',
      ]);
      expect(refs(await list(`?order=tree&limit=2&ending_before=${id['s/b']}`))).toEqual([
        's/a',
        's/d',
      ]);
      const pinned = await list(`?limit=2&starting_after=${id['s/a']}&as_of=${evt[3]}`);
      expect(refs(pinned)).toEqual(['s/b']);
    });

    it('refuses a cursor that is not in the list', async () => {
      const r = await list(`?parent_id=${id.s}&starting_after=${id['s/d']}`);
      expect(r.status).toBe(404);
      expect(r.json.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
      expect((await list(`?as_of=${evt[3]}&ending_before=${id['s/d']}`)).json.error).toMatchObject({
        code: 'resource_missing',
        param: 'ending_before',
      });
    });

    it('expands data.* paths on each node', async () => {
      const r = await list(`?parent_id=${id.s}&expand[]=data.children&expand[]=data.parent`);
      expect(
        r.json.data.map((n: { children: { data: unknown[] } }) => n.children.data.length),
      ).toEqual([1, 1]);
      expect(r.json.data[0].parent.id).toBe(id.s);
      expect(r.json.url).toContain('expand[]=data.children&expand[]=data.parent');
    });
  });
});
