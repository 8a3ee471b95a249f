import { ApiHarness, Json } from './support/api-harness';
import { EventScript } from './support/watch-events';

/** Every limit of read-api.md section 8 and decisions.md, at both edges. */
describe('read API: limits', () => {
  let h: ApiHarness;
  const root: Record<string, string> = {};

  /** A session `ref` with `wide` children, each with `deep` children of its own. */
  function tree(ref: string, wide: number, deep: number, extra = 0): EventScript {
    const s = new EventScript().session(ref);
    for (let i = 0; i < wide; i++) {
      s.agent(`${ref}/c${i}`, ref);
      for (let j = 0; j < deep; j++) s.agent(`${ref}/c${i}g${j}`, `${ref}/c${i}`);
    }
    for (let k = 0; k < extra; k++) s.agent(`${ref}/x${k}`, ref);
    return s;
  }

  beforeAll(async () => {
    h = await ApiHarness.start();
    await h.seed('hundred', tree('h', 100, 0).events); // 100 children
    await h.seed('hundred-one', tree('h1', 101, 0).events); // 101 children
    await h.seed('thousand', tree('k', 10, 99).events); // 1,000 descendants, 1,001 events
    await h.seed('thousand-one', tree('k1', 10, 99, 1).events); // 1,001 descendants
    for (const g of ['hundred', 'hundred-one', 'thousand', 'thousand-one']) {
      root[g] = (await h.get(`/api/v1/graphs/gph_${g}/nodes?limit=1`)).json.data[0].id;
    }
  }, 120_000);
  afterAll(() => h.stop());

  const expand = (g: string, query: string) =>
    h.get(`/api/v1/graphs/gph_${g}/nodes/${root[g]}?${query}`);
  const error = (r: { json: Json }) =>
    r.json.error && { code: r.json.error.code, param: r.json.error.param };

  it('children: the first 100, oldest first; has_more and a url past 100', async () => {
    const c100 = (await expand('hundred', 'expand[]=children')).json.children;
    expect(c100.data).toHaveLength(100);
    expect(c100.has_more).toBe(false);
    const c101 = (await expand('hundred-one', 'expand[]=children')).json.children;
    expect(c101.data).toHaveLength(100);
    expect(c101.has_more).toBe(true);
    expect(c101.data.map((n: { provider_ref: string }) => n.provider_ref).slice(0, 3)).toEqual([
      'h1/c0',
      'h1/c1',
      'h1/c2',
    ]);
    const rest = (await h.get(`${c101.url}&starting_after=${c101.data[99].id}`)).json;
    expect(rest.data.map((n: { provider_ref: string }) => n.provider_ref)).toEqual(['h1/c100']);
    expect(rest.as_of_event_id).toBe(c101.as_of_event_id);
  });

  it('descendants: the first 1,000 in tree order; has_more and a url pinned to the moment past 1,000', async () => {
    const d1000 = (await expand('thousand', 'expand[]=descendants')).json.descendants;
    expect(d1000.data).toHaveLength(1_000);
    expect(d1000.has_more).toBe(false);
    expect(d1000.data.slice(0, 3).map((n: { provider_ref: string }) => n.provider_ref)).toEqual([
      'k/c0',
      'k/c0g0',
      'k/c0g1',
    ]);
    const d1001 = (await expand('thousand-one', 'expand[]=descendants')).json.descendants;
    expect(d1001.data).toHaveLength(1_000);
    expect(d1001.has_more).toBe(true);
    expect(d1001.url).toContain(`as_of=${d1001.as_of_event_id}`);
    const rest = (await h.get(`${d1001.url}&starting_after=${d1001.data[999].id}`)).json;
    expect(rest.data.map((n: { provider_ref: string }) => n.provider_ref)).toEqual(['k1/x0']);
    expect(rest.has_more).toBe(false);
  });

  it('descendants_max_depth: 1 to 1,000', async () => {
    for (const bad of ['0', '1001', 'x']) {
      expect(
        error(await expand('thousand', `expand[]=descendants&descendants_max_depth=${bad}`)),
      ).toEqual({ code: 'parameter_invalid', param: 'descendants_max_depth' });
    }
    const one = (await expand('thousand', 'expand[]=descendants&descendants_max_depth=1')).json
      .descendants;
    expect(one.data).toHaveLength(10);
    expect(one.has_more).toBe(false);
    const all = (await expand('thousand', 'expand[]=descendants&descendants_max_depth=1000')).json
      .descendants;
    expect(all.data).toHaveLength(1_000);
  });

  it('limit: 1 to 1,000 on the nodes and events lists', async () => {
    for (const path of ['nodes', 'events']) {
      for (const bad of ['0', '1001']) {
        expect(error(await h.get(`/api/v1/graphs/gph_thousand/${path}?limit=${bad}`))).toEqual({
          code: 'parameter_invalid',
          param: 'limit',
        });
      }
      const one = (await h.get(`/api/v1/graphs/gph_thousand/${path}?limit=1`)).json;
      expect(one.data).toHaveLength(1);
      expect(one.has_more).toBe(true);
      const thousand = (await h.get(`/api/v1/graphs/gph_thousand/${path}?limit=1000`)).json;
      expect(thousand.data).toHaveLength(1_000);
      expect(thousand.has_more).toBe(true);
      expect((await h.get(`/api/v1/graphs/gph_thousand/${path}`)).json.data).toHaveLength(100);
    }
  });

  it('expand paths on events: at most 20', async () => {
    const twenty = [
      'data.node',
      'data.node.parent',
      'data.node.root',
      'data.node.session',
      'data.node.requested_by',
      'data.node.children',
      'data.node.descendants',
      'data.node.tasks',
      'data.node.spawns',
      'data.node.waits',
      'data.node.messages',
      'data.node.blocked.on',
      'data.node.parent.parent',
      'data.node.parent.root',
      'data.node.parent.session',
      'data.node.parent.requested_by',
      'data.node.parent.children',
      'data.node.parent.tasks',
      'data.node.parent.spawns',
      'data.node.parent.waits',
    ];
    const q = (paths: string[]) => paths.map((p) => `expand[]=${p}`).join('&');
    const ok = await h.get(`/api/v1/graphs/gph_hundred/events?limit=1&${q(twenty)}`);
    expect(ok.status).toBe(200);
    expect(ok.json.data[0].data.node.parent.waits.object).toBe('list');
    const over = await h.get(
      `/api/v1/graphs/gph_hundred/events?limit=1&${q([...twenty, 'data.node.parent.messages'])}`,
    );
    expect(error(over)).toEqual({ code: 'parameter_invalid', param: 'expand' });
  });

  it('at most 10,000 expanded objects per response', async () => {
    // 1,000 agent events, each with exactly one node per path: 10 paths = 10,000 objects
    const first = (await h.get('/api/v1/graphs/gph_thousand/events?order=asc&limit=1')).json.data[0]
      .id;
    const paths = [
      'data.node',
      'data.node.root',
      'data.node.session',
      'data.node.parent',
      'data.node.requested_by',
      'data.node.root.root',
      'data.node.root.session',
      'data.node.session.root',
      'data.node.session.session',
      'data.node.parent.root',
    ];
    const url = (p: string[]) =>
      `/api/v1/graphs/gph_thousand/events?order=asc&limit=1000&starting_after=${first}&${p.map((x) => `expand[]=${x}`).join('&')}`;
    const atCap = await h.get(url(paths));
    expect(atCap.status).toBe(200);
    expect(atCap.json.data).toHaveLength(1_000);
    const overCap = await h.get(url([...paths, 'data.node.parent.session']));
    expect(overCap.status).toBe(400);
    expect(error(overCap)).toEqual({ code: 'expand_too_large', param: 'expand' });
    // nested lists blow up quickly (each descendant's root's descendants): the page bytes
    // (PAGE_MAX_BYTES) end those lists early, has_more, before the object cap is reached
    const nested = await expand('thousand', 'expand[]=descendants.root.descendants');
    expect(nested.status).toBe(200);
    expect(nested.body.length).toBeLessThan(3 * 4 * 1024 * 1024);
    const lists = nested.json.descendants.data.map(
      (d: { root: { descendants: { has_more: boolean } } }) => d.root.descendants.has_more,
    );
    expect(lists).toContain(true);
  });
});
