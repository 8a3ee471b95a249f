import {
  expectApiError,
  expectGraphShape,
  expectListShape,
  expectRequestId,
} from './support/contract';
import { type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

const T = 1_763_770_000_000;
const ids = (list: { data: Array<{ id: string }> }) => list.data.map((g) => g.id);

/** read-api.md 4.1, 4.2, the Graph object, lists and conditional reads (decisions.md). */
describe('conformance: graphs', () => {
  let s: Services;
  let acme: IssuedKey;
  let bulk: IssuedKey;
  let other: IssuedKey;
  /** The bulk account's 101 graphs, most recently active first. */
  let bulkOrder: string[];

  beforeAll(async () => {
    s = await Services.start();
    [acme, bulk, other] = await Promise.all([
      s.createKey('acme'),
      s.createKey('bulk'),
      s.createKey('other'),
    ]);
    const counts = new WatchScript(T, 1_000)
      .session('S', { title: 'counted' })
      .agent('S/a', 'S', { background: false })
      .agent('S/b', 'S')
      .status('S/b', 'idle')
      .agent('S/c', 'S')
      .ended('S/c', 'failed')
      .agent('S/d', 'S')
      .status('S/d', 'input_required')
      .session('T')
      .ended('T', 'completed')
      .session('U')
      .ended('U', 'canceled');
    await s.load(acme, 'g-counts', counts.events);
    // last_event: g-1 T+100s, g-3 T+200s, g-2 T+300s, g-4 and g-5 both T+400s.
    for (const [key, at] of [
      ['g-1', 100],
      ['g-3', 200],
      ['g-2', 300],
      ['g-4', 400],
      ['g-5', 400],
    ] as const) {
      await s.load(acme, key, new WatchScript(T + at * 1_000).session('s').events);
    }
    await s.load(other, 'g-other', new WatchScript(T + 500_000).session('s').events);
    const keys = Array.from({ length: 101 }, (_, i) => `bulk-${String(i + 1).padStart(3, '0')}`);
    for (let i = 0; i < keys.length; i += 10) {
      await Promise.all(
        keys
          .slice(i, i + 10)
          .map((key, j) =>
            s.load(bulk, key, new WatchScript(T + (i + j) * 1_000).session('s').events),
          ),
      );
    }
    bulkOrder = keys.map((k) => `gph_${k}`).reverse();
  }, 120_000);
  afterAll(() => s?.stop());

  describe('GET /graphs/{graph_id}', () => {
    it('returns the Graph with every field, its retention and counts', async () => {
      const g = await s.read('/graphs/gph_g-counts', acme.auth);
      expectGraphShape(g);
      expect(g.id).toBe('gph_g-counts');
      const events = (await s.read('/graphs/gph_g-counts/events?order=asc', acme.auth)).data;
      expect(events).toHaveLength(12);
      expect(g.retention).toEqual({
        event_count: 12,
        first_event_id: events[0].id,
        first_event_created: T,
        last_event_id: events[11].id,
        last_event_created: T + 11_000,
      });
      expect(g.as_of_event_id).toBe(events[11].id);
      expect(g.last_event).toBe(T + 11_000);
      expect(g.url).toMatch(/^https?:\/\/.+gph_g-counts/);
      expect(g.counts).toEqual({
        nodes: 7,
        sessions: 3,
        agents: 4,
        // Both working nodes have been silent since 2025: stale now.
        stale: 2,
        blocked: 1,
        by_state: { working: 2, input_required: 1, idle: 1, completed: 1, failed: 1, canceled: 1 },
      });
    });

    it('answers 404 resource_missing, param graph_id, for an unknown graph', async () => {
      expectApiError(await s.get('/graphs/gph_nope', acme.auth), {
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'graph_id',
      });
    });

    it('answers 404 resource_missing for an id without the gph_ prefix', async () => {
      expectApiError(await s.get('/graphs/g-counts', acme.auth), {
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
      });
    });
  });

  describe('GET /graphs', () => {
    it('returns a list envelope of Graphs, most recently active first, each as of its latest event', async () => {
      const list = await s.read('/graphs', acme.auth);
      expectListShape(list, true);
      expect(list.has_more).toBe(false);
      expect(list.url).toMatch(/^\/api\/v1\/graphs/);
      const order = ids(list);
      expect(order.slice(2)).toEqual(['gph_g-2', 'gph_g-3', 'gph_g-1', 'gph_g-counts']);
      expect(order.slice(0, 2).sort()).toEqual(['gph_g-4', 'gph_g-5']);
      for (const g of list.data) {
        expectGraphShape(g);
        expect(g.as_of_event_id).toBe(g.retention.last_event_id);
      }
      expect(await s.read('/graphs/gph_g-counts', acme.auth)).toEqual(list.data[5]);
    });

    it('orders ties on last_event by id, the same way on every page', async () => {
      const whole = ids(await s.read('/graphs', acme.auth));
      const first = await s.read('/graphs?limit=1', acme.auth);
      const second = await s.read(`/graphs?limit=1&starting_after=${first.data[0].id}`, acme.auth);
      expect([...ids(first), ...ids(second)]).toEqual(whole.slice(0, 2));
    });

    it.each([
      ['last_event[gt]', 200, ['gph_g-2', 'gph_g-4', 'gph_g-5']],
      ['last_event[gte]', 200, ['gph_g-2', 'gph_g-3', 'gph_g-4', 'gph_g-5']],
      ['last_event[lt]', 200, ['gph_g-1', 'gph_g-counts']],
      ['last_event[lte]', 200, ['gph_g-1', 'gph_g-3', 'gph_g-counts']],
    ])('filters with %s at the edge of a graph last_event', async (filter, at, expected) => {
      const list = await s.read(
        `/graphs?${encodeURIComponent(filter)}=${T + at * 1_000}`,
        acme.auth,
      );
      expect(ids(list).sort()).toEqual(expected);
      expect(decodeURIComponent(list.url)).toContain(`${filter}=${T + at * 1_000}`);
    });

    it('combines range filters', async () => {
      const list = await s.read(
        `/graphs?last_event[gt]=${T + 100_000}&last_event[lt]=${T + 400_000}`,
        acme.auth,
      );
      expect(ids(list)).toEqual(['gph_g-2', 'gph_g-3']);
    });

    it.each(['last_event[gt]', 'last_event[lte]'])(
      'refuses a %s that is not a number',
      async (filter) => {
        expectApiError(await s.get(`/graphs?${filter}=yesterday`, acme.auth), {
          status: 400,
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: filter,
        });
      },
    );
  });

  describe('limit and cursors (bulk account: 101 graphs)', () => {
    it('defaults limit to 100', async () => {
      const list = await s.read('/graphs', bulk.auth);
      expect(ids(list)).toEqual(bulkOrder.slice(0, 100));
      expect(list.has_more).toBe(true);
    });

    it.each([
      [1, 1, true],
      [100, 100, true],
      [101, 101, false],
      [1000, 101, false],
    ])('accepts limit=%s', async (limit, count, hasMore) => {
      const list = await s.read(`/graphs?limit=${limit}`, bulk.auth);
      expect(ids(list)).toEqual(bulkOrder.slice(0, count));
      expect(list.has_more).toBe(hasMore);
      expect(list.url).toContain(`limit=${limit}`);
    });

    it.each(['0', '1001', '-1', '1.5', 'ten', ''])(
      'refuses limit=%j with parameter_invalid param limit',
      async (limit) => {
        expectApiError(await s.get(`/graphs?limit=${limit}`, bulk.auth), {
          status: 400,
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'limit',
        });
      },
    );

    it('pages forward with starting_after through the list url', async () => {
      const seen: string[] = [];
      let page = await s.read('/graphs?limit=40', bulk.auth);
      seen.push(...ids(page));
      while (page.has_more) {
        page = await s.read(`${page.url}&starting_after=${seen[seen.length - 1]}`, bulk.auth);
        expect(page.data.length).toBeGreaterThan(0);
        seen.push(...ids(page));
      }
      expect(seen).toEqual(bulkOrder);
    });

    it('pages backward with ending_before', async () => {
      const before = await s.read(`/graphs?limit=40&ending_before=${bulkOrder[80]}`, bulk.auth);
      expect(ids(before)).toEqual(bulkOrder.slice(40, 80));
      expect(before.has_more).toBe(true);
      const start = await s.read(`/graphs?limit=40&ending_before=${bulkOrder[30]}`, bulk.auth);
      expect(ids(start)).toEqual(bulkOrder.slice(0, 30));
      expect(start.has_more).toBe(false);
    });

    it('refuses starting_after and ending_before together with parameter_invalid', async () => {
      const e = expectApiError(
        await s.get(
          `/graphs?starting_after=${bulkOrder[1]}&ending_before=${bulkOrder[5]}`,
          bulk.auth,
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
      ['starting_after', 'gph_nope'],
      ['ending_before', 'gph_nope'],
      ['starting_after', 'gph_g-other'],
      ['starting_after', 'gph_g-1'],
    ])(
      'answers a %s cursor %s that is not in the list with 404 resource_missing',
      async (cursor, id) => {
        expectApiError(await s.get(`/graphs?${cursor}=${id}`, bulk.auth), {
          status: 404,
          type: 'invalid_request_error',
          code: 'resource_missing',
          param: cursor,
        });
      },
    );
  });

  describe('conditional reads', () => {
    const paths = ['/graphs/gph_g-1', '/graphs'];

    it.each(paths)(
      '%s sends a strong ETag that stays the same while nothing changes',
      async (path) => {
        const a = await s.get(path, acme.auth);
        const b = await s.get(path, acme.auth);
        expect(a.headers.etag).toMatch(/^"[^"]+"$/);
        expect(b.headers.etag).toBe(a.headers.etag);
      },
    );

    it.each(paths)(
      '%s answers If-None-Match with a matching tag with 304 and no body',
      async (path) => {
        const etag = (await s.get(path, acme.auth)).headers.etag as string;
        for (const header of [etag, `"nope", ${etag}`, `W/${etag}`]) {
          const res = await s.get(path, acme.auth, { headers: { 'if-none-match': header } });
          expect([header, res.status]).toEqual([header, 304]);
          expect(res.text).toBe('');
          expect(res.headers.etag).toBe(etag);
          expectRequestId(res);
        }
        const miss = await s.get(path, acme.auth, { headers: { 'if-none-match': '"nope"' } });
        expect(miss.status).toBe(200);
      },
    );

    it('keeps the ETag while the body stays, and changes it when a working node turns stale', async () => {
      // Default threshold: 5 minutes of silence. The node's only event is 4 min 54 s old.
      const silentSince = Date.now() - 300_000 + 6_000;
      await s.load(acme, 'g-stale', new WatchScript(silentSince).session('s').events);
      const fresh = await s.get('/graphs/gph_g-stale', acme.auth);
      expect(fresh.body.counts.stale).toBe(0);
      const etag = fresh.headers.etag as string;
      let res = fresh;
      while (Date.now() < silentSince + 300_000 + 5_000) {
        res = await s.get('/graphs/gph_g-stale', acme.auth, { headers: { 'if-none-match': etag } });
        if (res.status !== 304) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(res.status).toBe(200);
      expect(res.body.counts.stale).toBe(1);
      expect(res.headers.etag).not.toBe(etag);
      expect(Date.now()).toBeGreaterThanOrEqual(silentSince + 300_000);
    });

    it('changes the ETag when the body changes (a new event), and answers the old tag with 200', async () => {
      const before = await s.get('/graphs/gph_g-1', acme.auth);
      const listBefore = await s.get('/graphs', acme.auth);
      await s.load(acme, 'g-1', new WatchScript(T + 600_000).activity('s').events);
      const after = await s.get('/graphs/gph_g-1', acme.auth, {
        headers: { 'if-none-match': before.headers.etag as string },
      });
      expect(after.status).toBe(200);
      expect(after.body).not.toEqual(before.body);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const listAfter = await s.get('/graphs', acme.auth, {
        headers: { 'if-none-match': listBefore.headers.etag as string },
      });
      expect(listAfter.status).toBe(200);
      expect(listAfter.headers.etag).not.toBe(listBefore.headers.etag);
      const order = ids(listAfter.body);
      expect(order.indexOf('gph_g-1')).toBeLessThan(order.indexOf('gph_g-4'));
    });
  });
});
