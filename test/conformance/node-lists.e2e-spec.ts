import { expectApiError, expectListShape, expectNodeShape } from './support/contract';
import { type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const refs = (list: { data: Node[] }) => list.data.map((n) => n.provider_ref as string);
const pad = (n: number, width = 4) => String(n).padStart(width, '0');

/**
 * read-api.md 4.3 `children` (first 100) and `descendants` (first 1,000), 4.4 the nodes list,
 * decisions.md descendants_max_depth, max_depth/kind/state filters and expand_too_large.
 */
describe('conformance: children, descendants and the nodes list', () => {
  let s: Services;
  let acme: IssuedKey;
  /** gph_wide: session W with 1,001 children W/c0000 … W/c1000. */
  let wide: { root: string; children: string[] };
  /**
   * gph_exact: session E with 100 children E/cNN and 900 grandchildren E/gNN-i (9 per child),
   * spawned after every child, round-robin, so creation order differs from tree order.
   */
  let exact: { root: string; created: string[]; tree: string[] };

  beforeAll(async () => {
    s = await Services.start();
    acme = await s.createKey('acme');
    const w = new WatchScript(1_763_770_000_000, 10).session('W');
    const children = Array.from({ length: 1_001 }, (_, i) => `W/c${pad(i)}`);
    for (const c of children) w.agent(c, 'W');
    const e = new WatchScript(1_763_780_000_000, 10).session('E');
    const kids = Array.from({ length: 100 }, (_, j) => `E/c${pad(j, 2)}`);
    for (const c of kids) e.agent(c, 'E');
    const grand = (j: number, i: number) => `E/g${pad(j, 2)}-${i}`;
    for (let i = 0; i < 9; i++) for (let j = 0; j < 100; j++) e.agent(grand(j, i), kids[j]!);
    await Promise.all([s.load(acme, 'wide', w.events), s.load(acme, 'exact', e.events)]);
    const rootId = async (graph: string) =>
      (await s.read(`/graphs/gph_${graph}/nodes?limit=1`, acme.auth)).data[0].id;
    wide = { root: await rootId('wide'), children };
    exact = {
      root: await rootId('exact'),
      created: e.events.map((x) => x.node),
      tree: [
        'E',
        ...kids.flatMap((c, j) => [c, ...Array.from({ length: 9 }, (_, i) => grand(j, i))]),
      ],
    };
  }, 120_000);
  afterAll(() => s?.stop());

  const expand = (...paths: string[]) => paths.map((p) => `expand[]=${p}`).join('&');
  const readNode = (graph: string, nodeId: string, query: string) =>
    s.read(`/graphs/gph_${graph}/nodes/${nodeId}?${query}`, acme.auth);

  describe('children expansion', () => {
    it('holds all of exactly 100 children, oldest first, has_more false', async () => {
      const n = await readNode('exact', exact.root, expand('children'));
      expectListShape(n.children);
      expect(refs(n.children)).toEqual(exact.created.slice(1, 101));
      expect(n.children.has_more).toBe(false);
    });

    it('holds the first 100 of 101+ children, has_more true, and a url that lists the rest', async () => {
      const n = await readNode('wide', wide.root, expand('children'));
      expect(refs(n.children)).toEqual(wide.children.slice(0, 100));
      expect(n.children.has_more).toBe(true);
      expect(n.children.url).toContain(`parent_id=${wide.root}`);
      expect(n.children.url).toContain(`as_of=${n.as_of_event_id}`);
      const all = refs(n.children);
      let page = n.children;
      while (page.has_more) {
        page = await s.read(
          `${page.url}&starting_after=${page.data[page.data.length - 1].id}`,
          acme.auth,
        );
        all.push(...refs(page));
      }
      expect(all).toEqual(wide.children);
    });
  });

  describe('descendants expansion', () => {
    it('holds all of exactly 1,000 descendants in tree order, each with parent_id, has_more false', async () => {
      const n = await readNode('exact', exact.root, expand('descendants'));
      expectListShape(n.descendants);
      expect(refs(n.descendants)).toEqual(exact.tree.slice(1));
      expect(n.descendants.has_more).toBe(false);
      const byId = new Map(n.descendants.data.map((d: Node) => [d.id, d]));
      const position = new Map(n.descendants.data.map((d: Node, i: number) => [d.id, i]));
      for (const [i, d] of n.descendants.data.entries()) {
        expectNodeShape(d);
        expect(
          d.parent_id === exact.root ||
            (byId.has(d.parent_id) && (position.get(d.parent_id) as number) < i),
        ).toBe(true);
      }
    });

    it('holds the first 1,000 of 1,001 with a url pinned to as_of, continued via the nodes list', async () => {
      const n = await readNode('wide', wide.root, expand('descendants'));
      expect(refs(n.descendants)).toEqual(wide.children.slice(0, 1_000));
      expect(n.descendants.has_more).toBe(true);
      expect(n.descendants.url).toContain(`as_of=${n.as_of_event_id}`);
      const last = n.descendants.data[999].id;
      const rest = await s.read(`${n.descendants.url}&starting_after=${last}`, acme.auth);
      expect(refs(rest)).toEqual([wide.children[1_000]]);
      expect(rest.has_more).toBe(false);
      const viaList = await s.read(
        `/graphs/gph_wide/nodes?ancestor_id=${wide.root}&order=tree&as_of=${n.as_of_event_id}&starting_after=${last}`,
        acme.auth,
      );
      expect(refs(viaList)).toEqual([wide.children[1_000]]);
    });

    it.each([
      [1, 100],
      [2, 1_000],
      [1_000, 1_000],
    ])('descendants_max_depth=%s keeps the levels below the node', async (depth, count) => {
      const n = await readNode(
        'exact',
        exact.root,
        `${expand('descendants')}&descendants_max_depth=${depth}`,
      );
      expect(n.descendants.data).toHaveLength(count);
      expect(refs(n.descendants)).toEqual(
        exact.tree.slice(1).filter((r) => depth > 1 || r.startsWith('E/c')),
      );
      expect(n.descendants.has_more).toBe(false);
    });

    it.each(['0', '1001', '-1', '1.5', 'deep', ''])(
      'refuses descendants_max_depth=%j with parameter_invalid',
      async (depth) => {
        const res = await s.get(
          `/graphs/gph_exact/nodes/${exact.root}?${expand('descendants')}&descendants_max_depth=${depth}`,
          acme.auth,
        );
        expectApiError(res, {
          status: 400,
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'descendants_max_depth',
        });
      },
    );
  });

  describe('expand_too_large: at most 10,000 expanded objects per response', () => {
    // Every descendant of W is an agent under W: each path below adds exactly 1,000 nodes.
    const tenThousand = [
      'descendants',
      'descendants.parent',
      'descendants.root',
      'descendants.session',
      'descendants.requested_by',
      'descendants.parent.root',
      'descendants.parent.session',
      'descendants.root.root',
      'descendants.root.session',
      'descendants.session.root',
    ];

    it('answers 10,000 expanded nodes', async () => {
      const res = await s.get(
        `/graphs/gph_wide/nodes/${wide.root}?${expand(...tenThousand)}`,
        acme.auth,
      );
      expect(res.status).toBe(200);
      const d = res.body.descendants.data;
      expect(d).toHaveLength(1_000);
      expect(d[999].session.root.id).toBe(wide.root);
    });

    it('refuses 11,000 with 400 expand_too_large, param expand', async () => {
      const res = await s.get(
        `/graphs/gph_wide/nodes/${wide.root}?${expand(...tenThousand, 'descendants.session.session')}`,
        acme.auth,
      );
      expectApiError(res, {
        status: 400,
        type: 'invalid_request_error',
        code: 'expand_too_large',
        param: 'expand',
      });
    });

    it('refuses a nested children.children… that would blow up', async () => {
      const res = await s.get(
        `/graphs/gph_wide/nodes/${wide.root}?${expand('children.root.children.root')}`,
        acme.auth,
      );
      expectApiError(res, {
        status: 400,
        type: 'invalid_request_error',
        code: 'expand_too_large',
        param: 'expand',
      });
    });
  });

  describe('GET /graphs/{graph_id}/nodes', () => {
    it('lists nodes by created, then id, by default, pinning as_of in its url', async () => {
      const first = await s.read('/graphs/gph_exact/nodes?limit=1000', acme.auth);
      expectListShape(first);
      expect(refs(first)).toEqual(exact.created.slice(0, 1_000));
      expect(first.has_more).toBe(true);
      expect(first.url).toContain(`as_of=${first.as_of_event_id}`);
      expect(first.url).toContain('limit=1000');
      const next = await s.read(`${first.url}&starting_after=${first.data[999].id}`, acme.auth);
      expect(refs(next)).toEqual(exact.created.slice(1_000));
      expect(next.has_more).toBe(false);
    });

    it('defaults limit to 100', async () => {
      const list = await s.read('/graphs/gph_exact/nodes', acme.auth);
      expect(list.data).toHaveLength(100);
      expect(list.has_more).toBe(true);
    });

    it('lists in tree order with order=tree', async () => {
      const list = await s.read('/graphs/gph_exact/nodes?order=tree&limit=1000', acme.auth);
      expect(refs(list)).toEqual(exact.tree.slice(0, 1_000));
    });

    it('filters by parent_id, ancestor_id and max_depth', async () => {
      const kids = await s.read(
        `/graphs/gph_exact/nodes?parent_id=${exact.root}&limit=1000`,
        acme.auth,
      );
      expect(refs(kids)).toEqual(exact.created.slice(1, 101));
      const under = await s.read(
        `/graphs/gph_exact/nodes?ancestor_id=${exact.root}&order=tree&limit=1000`,
        acme.auth,
      );
      expect(refs(under)).toEqual(exact.tree.slice(1));
      const shallow = await s.read(
        `/graphs/gph_exact/nodes?ancestor_id=${exact.root}&max_depth=1&limit=1000`,
        acme.auth,
      );
      expect(refs(shallow)).toEqual(exact.created.slice(1, 101));
      const child = kids.data[3];
      const grand = await s.read(
        `/graphs/gph_exact/nodes?ancestor_id=${child.id}&order=tree`,
        acme.auth,
      );
      expect(refs(grand)).toEqual(Array.from({ length: 9 }, (_, i) => `E/g03-${i}`));
    });

    it('filters by kind and state', async () => {
      const sessions = await s.read('/graphs/gph_exact/nodes?kind=session', acme.auth);
      expect(refs(sessions)).toEqual(['E']);
      const filtered = await s.read(
        `/graphs/gph_exact/nodes?kind=agent&state=working&order=tree&ancestor_id=${exact.root}&max_depth=1&limit=7`,
        acme.auth,
      );
      for (const p of [
        'kind=agent',
        'state=working',
        'order=tree',
        `ancestor_id=${exact.root}`,
        'max_depth=1',
        'limit=7',
        `as_of=${filtered.as_of_event_id}`,
      ]) {
        expect(filtered.url).toContain(p);
      }
      const agents = await s.read('/graphs/gph_exact/nodes?kind=agent&limit=1', acme.auth);
      expect(refs(agents)).toEqual(['E/c00']);
      const idle = await s.read('/graphs/gph_exact/nodes?state=idle', acme.auth);
      expect(idle.data).toEqual([]);
      const working = await s.read('/graphs/gph_exact/nodes?state=working&limit=1000', acme.auth);
      expect(working.data).toHaveLength(1_000);
    });

    it('accepts data.-prefixed expansions', async () => {
      const list = await s.read(
        `/graphs/gph_exact/nodes?parent_id=${exact.root}&limit=2&expand[]=data.parent`,
        acme.auth,
      );
      for (const n of list.data) expect(n.parent.id).toBe(exact.root);
      expect(decodeURIComponent(list.url)).toContain('expand[]=data.parent');
    });

    it('repeats nested expansions in the url of an expanded list', async () => {
      const n = await readNode('exact', exact.root, expand('children.children'));
      expect(decodeURIComponent(n.children.url)).toContain('expand[]=data.children');
      const page = await s.read(n.children.url, acme.auth);
      expect(page.data[0].children.object).toBe('list');
    });

    it.each([
      ['limit', '0'],
      ['limit', '1001'],
      ['limit', 'x'],
      ['order', 'sideways'],
      ['kind', 'robot'],
      ['state', 'sleeping'],
      ['max_depth', '0'],
    ])('refuses %s=%s with parameter_invalid', async (param, value) => {
      const res = await s.get(
        `/graphs/gph_exact/nodes?ancestor_id=${exact.root}&${param}=${value}`,
        acme.auth,
      );
      expectApiError(res, {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param,
      });
    });

    it('answers an unknown starting_after with 404 resource_missing', async () => {
      expectApiError(await s.get('/graphs/gph_exact/nodes?starting_after=node_zzzzzz', acme.auth), {
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'starting_after',
      });
    });
  });
});
