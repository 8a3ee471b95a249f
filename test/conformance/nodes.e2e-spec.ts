import { expectApiError, expectListShape, expectNodeShape } from './support/contract';
import { type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

const T = 1_763_770_000_000;
const at = (i: number) => T + i * 1_000;
type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** read-api.md 4.3 (one node, its fields and expansions) and decisions.md "Expand". */
describe('conformance: retrieve a node', () => {
  let s: Services;
  let acme: IssuedKey;
  /** Node ids by provider_ref. */
  const id: Record<string, string> = {};
  let otherGraphNode: string;

  beforeAll(async () => {
    s = await Services.start();
    acme = await s.createKey('acme');
    const script = new WatchScript(T, 1_000)
      .session('S', { title: 'Rich session', cwd: '/repo' }) // 0
      .agent('S/a', 'S', {
        background: false,
        spawn_call_id: 'toolu_1',
        agent_type: 'Explore',
        purpose: 'Find things',
        cwd: '/repo/a',
      }) // 1
      .agent('S/a2', 'S/a', { requested_by: 'S' }) // 2
      .agent('S/a3', 'S/a2') // 3
      .agent('S/a4', 'S/a3') // 4
      .status('S/a', 'working', 'First line of the summary\nsecond line') // 5
      .event('tasks.updated', 'S/a', {
        tasks: [
          { id: 't1', content: 'A', status: 'pending' },
          { content: 'B', status: 'in_progress', active_form: 'Doing B' },
          { id: 't3', content: 'C', status: 'completed' },
        ],
      }) // 6
      .event('wait.started', 'S/a2', { on: ['S/a3'], reason: 'review' }) // 7
      .event('message.sent', 'S', { to: 'S/a', text: 'hello' }) // 8
      .event('attention.raised', 'S/a', { reason: 'question', message: 'Which file?' }) // 9
      .status('S/a3', 'working', 'L'.repeat(130)) // 10
      .session('S2') // 11
      .status('S2', 'idle') // 12
      .session('C1') // 13
      .session('C2') // 14
      .event('wait.started', 'C1', { on: ['C2'] }) // 15
      .event('wait.started', 'C2', { on: ['C1'] }) // 16
      .event('message.sent', 'C1', { to: 'C2', text: 'm'.repeat(2_001) }); // 17
    await s.load(acme, 'n-rich', script.events);
    await s.load(acme, 'n-elsewhere', new WatchScript().session('X').events);
    const nodes = (await s.read('/graphs/gph_n-rich/nodes', acme.auth)).data as Node[];
    for (const n of nodes) id[n.provider_ref] = n.id;
    otherGraphNode = (await s.read('/graphs/gph_n-elsewhere/nodes', acme.auth)).data[0].id;
  }, 90_000);
  afterAll(() => s?.stop());

  const node = (ref: string, query = '') =>
    s.read(`/graphs/gph_n-rich/nodes/${id[ref]}${query}`, acme.auth) as Promise<Node>;
  const expand = (...paths: string[]) => `?${paths.map((p) => `expand[]=${p}`).join('&')}`;
  const keysAfter = (n: Node, field: string) => Object.keys(n)[Object.keys(n).indexOf(field) + 1];

  describe('fields', () => {
    it('returns an agent with every field of section 2 and decisions.md', async () => {
      const a = await node('S/a');
      expectNodeShape(a);
      const graph = await s.read('/graphs/gph_n-rich', acme.auth);
      expect(a).toEqual({
        id: id['S/a'],
        object: 'node',
        as_of_event_id: graph.as_of_event_id,
        graph_id: 'gph_n-rich',
        provider_ref: 'S/a',
        provider: 'claude-code',
        kind: 'agent',
        parent_id: id.S,
        root_id: id.S,
        session_id: id.S,
        requested_by_id: id.S,
        depth: 1,
        state: 'working',
        stale: true,
        attention: { reason: 'question', message: 'Which file?', since: at(9) },
        title: null,
        summary: 'First line of the summary\nsecond line',
        headline: 'First line of the summary',
        purpose: 'Find things',
        agent_type: 'Explore',
        background: false,
        link_method: 'spawn_call_id',
        spawn_call_id: 'toolu_1',
        cwd: '/repo/a',
        created: at(1),
        ended: null,
        last_event: at(9),
        child_count: 1,
        descendant_count: 3,
        background_agent_count: 3,
        task_counts: { total: 3, pending: 1, in_progress: 1, completed: 1, open: 2 },
        blocked: null,
        usage: null,
        descendant_usage: null,
      });
    });

    it('returns a root session: depth 0, null agent fields, blocked on its foreground child', async () => {
      const root = await node('S');
      expectNodeShape(root);
      expect(root).toMatchObject({
        provider_ref: 'S',
        kind: 'session',
        parent_id: null,
        root_id: id.S,
        session_id: id.S,
        requested_by_id: null,
        depth: 0,
        title: 'Rich session',
        cwd: '/repo',
        agent_type: null,
        background: null,
        link_method: null,
        spawn_call_id: null,
        child_count: 1,
        descendant_count: 4,
        blocked: {
          on_ids: [id['S/a']],
          starting: at(1),
          node_count: 1,
          open_tasks: 2,
          cycle: false,
        },
      });
    });

    it('sets requested_by_id, depth, explicit link_method and headline ≤ 120 characters', async () => {
      const a2 = await node('S/a2');
      expect(a2).toMatchObject({
        parent_id: id['S/a'],
        requested_by_id: id.S,
        depth: 2,
        link_method: 'explicit',
        session_id: id.S,
      });
      expect(a2.provider_ref.startsWith('S/')).toBe(true);
      expect(a2.blocked).toEqual({
        on_ids: [id['S/a3']],
        starting: at(7),
        node_count: 1,
        open_tasks: 0,
        cycle: false,
      });
      const a3 = await node('S/a3');
      expect(a3.headline).toBe('L'.repeat(120));
      expect(a3.summary).toBe('L'.repeat(130));
      expect((await node('S/a4')).depth).toBe(4);
    });
  });

  describe('decisions.md node details', () => {
    it('marks a wait cycle (deadlock) on both nodes', async () => {
      const [c1, c2] = [await node('C1'), await node('C2')];
      expect(c1.blocked).toMatchObject({ on_ids: [id.C2], starting: at(15), cycle: true });
      expect(c2.blocked).toMatchObject({ on_ids: [id.C1], starting: at(16), cycle: true });
    });

    it('keeps message text to 2,000 characters', async () => {
      const c2 = await node('C2', '?expand[]=messages');
      expect(c2.messages.data[0]).toMatchObject({
        direction: 'received',
        from_id: id.C1,
        text: 'm'.repeat(2_000),
      });
    });
  });

  describe('expand[]', () => {
    it.each(['parent', 'root', 'session', 'requested_by'])(
      '%s adds the Node right beside its _id field',
      async (path) => {
        const a2 = await node('S/a2', expand(path));
        const expanded = a2[path];
        expectNodeShape(expanded);
        expect(expanded.id).toBe(a2[`${path}_id`]);
        expect(keysAfter(a2, `${path}_id`)).toBe(path);
        expect(expanded.as_of_event_id).toBe(a2.as_of_event_id);
      },
    );

    it('leaves parent absent for a root, with parent_id null', async () => {
      const root = await node('S', expand('parent'));
      expect(root.parent_id).toBeNull();
      expect(root).not.toHaveProperty('parent');
    });

    it('blocked.on adds the nodes waited on beside blocked.on_ids', async () => {
      const root = await node('S', expand('blocked.on'));
      expect(keysAfter(root.blocked, 'on_ids')).toBe('on');
      expectListShape(root.blocked.on);
      expect(root.blocked.on.data.map((n: Node) => n.id)).toEqual(root.blocked.on_ids);
      for (const n of root.blocked.on.data) expectNodeShape(n);
    });

    it('children and descendants are list envelopes in the documented order', async () => {
      const root = await node('S', expand('children', 'descendants'));
      expectListShape(root.children);
      expectListShape(root.descendants);
      expect(root.children.data.map((n: Node) => n.provider_ref)).toEqual(['S/a']);
      expect(root.descendants.data.map((n: Node) => n.provider_ref)).toEqual([
        'S/a',
        'S/a2',
        'S/a3',
        'S/a4',
      ]);
      expect(root.descendants.data.map((n: Node) => n.parent_id)).toEqual([
        id.S,
        id['S/a'],
        id['S/a2'],
        id['S/a3'],
      ]);
      expect(root.children.has_more).toBe(false);
      expect(root.descendants.has_more).toBe(false);
    });

    it('tasks expand to a list of task items', async () => {
      const a = await node('S/a', expand('tasks'));
      expectListShape(a.tasks);
      expect(a.tasks.data).toEqual([
        {
          object: 'task',
          id: 't1',
          content: 'A',
          status: 'pending',
          active_form: null,
          created: at(6),
          updated: at(6),
        },
        {
          object: 'task',
          id: 'task_2',
          content: 'B',
          status: 'in_progress',
          active_form: 'Doing B',
          created: at(6),
          updated: at(6),
        },
        {
          object: 'task',
          id: 't3',
          content: 'C',
          status: 'completed',
          active_form: null,
          created: at(6),
          updated: at(6),
        },
      ]);
    });

    it('spawns list the children the node asked for', async () => {
      const root = await node('S', expand('spawns'));
      expectListShape(root.spawns);
      expect(root.spawns.data).toEqual([
        {
          object: 'spawn',
          spawn_call_id: 'toolu_1',
          node_id: id['S/a'],
          agent_type: 'Explore',
          purpose: 'Find things',
          background: false,
          created: at(1),
        },
        {
          object: 'spawn',
          spawn_call_id: null,
          node_id: id['S/a2'],
          agent_type: 'general',
          purpose: 'work of S/a2',
          background: true,
          created: at(2),
        },
      ]);
    });

    it('waits list what the node waited on and waits on', async () => {
      const a2 = await node('S/a2', expand('waits'));
      expectListShape(a2.waits);
      expect(a2.waits.data).toEqual([
        { object: 'wait', on_id: id['S/a3'], reason: 'review', started: at(7), ended: null },
      ]);
      const root = await node('S', expand('waits'));
      expect(root.waits.data).toEqual([
        expect.objectContaining({ object: 'wait', on_id: id['S/a'], started: at(1), ended: null }),
      ]);
    });

    it('messages list sent and received messages', async () => {
      const sender = await node('S', expand('messages'));
      const receiver = await node('S/a', expand('messages'));
      expectListShape(sender.messages);
      const sent = sender.messages.data[0];
      expect(sent).toEqual({
        object: 'message',
        id: sent.id,
        direction: 'sent',
        from_id: id.S,
        to_id: id['S/a'],
        created: at(8),
        text: 'hello',
      });
      expect(receiver.messages.data).toEqual([{ ...sent, direction: 'received' }]);
    });

    it('expands dotted paths: parent.parent, children.children, root.tasks', async () => {
      const a2 = await node('S/a2', expand('parent.parent', 'root.tasks'));
      expect(a2.parent.id).toBe(id['S/a']);
      expect(a2.parent.parent.id).toBe(id.S);
      expect(a2.root.tasks.data).toEqual([]);
      const root = await node('S', expand('children.children'));
      expect(root.children.data[0].children.data.map((n: Node) => n.id)).toEqual([id['S/a2']]);
    });

    it('accepts a path of 4 levels and refuses 5 with 400 expand_too_deep, param expand', async () => {
      const a4 = await node('S/a4', expand('parent.parent.parent.parent'));
      expect(a4.parent.parent.parent.parent.id).toBe(id.S);
      const res = await s.get(
        `/graphs/gph_n-rich/nodes/${id['S/a4']}${expand('parent.parent.parent.parent.parent')}`,
        acme.auth,
      );
      expectApiError(res, {
        status: 400,
        type: 'invalid_request_error',
        code: 'expand_too_deep',
        param: 'expand',
      });
    });

    it.each(['colour', 'parent.colour', 'data.parent', ''])(
      'refuses the unknown path %j with parameter_invalid, param expand',
      async (path) => {
        const res = await s.get(`/graphs/gph_n-rich/nodes/${id.S}${expand(path)}`, acme.auth);
        expectApiError(res, {
          status: 400,
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'expand',
        });
      },
    );
  });

  describe('errors', () => {
    it.each([
      ['an unknown node id', () => 'node_zzzzzz'],
      ['a node of another graph', () => otherGraphNode],
      ['a malformed id', () => 'nope'],
    ])('answers %s with 404 resource_missing, param node_id', async (_what, nodeId) => {
      expectApiError(await s.get(`/graphs/gph_n-rich/nodes/${nodeId()}`, acme.auth), {
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'node_id',
      });
    });

    it('refuses descendants_max_depth without expand[]=descendants', async () => {
      expectApiError(
        await s.get(`/graphs/gph_n-rich/nodes/${id.S}?descendants_max_depth=2`, acme.auth),
        {
          status: 400,
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'descendants_max_depth',
        },
      );
    });
  });

  describe('conditional reads', () => {
    it('sends an ETag and answers a matching If-None-Match with 304', async () => {
      const path = `/graphs/gph_n-rich/nodes/${id.S}${expand('children')}`;
      const first = await s.get(path, acme.auth);
      expect(first.headers.etag).toMatch(/^"[^"]+"$/);
      const again = await s.get(path, acme.auth, {
        headers: { 'if-none-match': first.headers.etag as string },
      });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      const other = await s.get(`/graphs/gph_n-rich/nodes/${id.S}`, acme.auth);
      expect(other.headers.etag).not.toBe(first.headers.etag);
    });
  });
});
