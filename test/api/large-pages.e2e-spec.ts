import { ApiHarness } from './support/api-harness';
import { largeTaskEvents } from './support/large-events';
import { EventScript } from './support/watch-events';

interface Page {
  status: number;
  bytes: number;
  has_more: boolean;
  ids: string[];
}

/** Pages bounded in bytes: what one request can hold in memory, whatever the stored rows. */
describe('read API: pages of large stored rows', () => {
  describe('bounded by PAGE_MAX_BYTES', () => {
    const MAX = 80_000;
    let h: ApiHarness;
    let key: string;
    let eventCount: number;

    beforeAll(async () => {
      h = await ApiHarness.start({
        PAGE_MAX_BYTES: String(MAX),
        RATE_LIMIT_PER_SECOND: '1000000000',
        RATE_LIMIT_BURST: '1000000000',
        ACCOUNT_CONCURRENCY: '1000',
      });
      // ~34 KB events, then one of ~92 KB: larger than the bound on its own (the largest payload
      // ingest takes is 100,000 characters)
      const s = largeTaskEvents(12, 100, 300);
      s.tasks(
        's',
        Array.from({ length: 270 }, (_, t) => ({
          id: String(t),
          content: 'y'.repeat(300),
          status: 'pending',
        })),
      );
      // small events of a node whose task list is ~92 KB
      s.status('s', 'idle').status('s', 'working').status('s', 'idle');
      eventCount = s.events.length;
      await h.seed('big', s.events, 'big');
      // 80 agents of ~20 KB each: 1.6 MB of nodes, 20 times the bound
      const wide = new EventScript().session('w');
      for (let i = 0; i < 80; i++)
        wide.agent(`w/a${i}`, 'w', { purpose: `${i}:`.padEnd(20_000, 'p') });
      await h.seed('wide', wide.events, 'big');
      key = await h.key('big');
    });
    afterAll(() => h.stop());

    const page = async (path: string): Promise<Page> => {
      const r = await h.get(path, { key });
      const body = r.json as { has_more: boolean; data: { id: string }[] };
      expect(r.status).toBe(200);
      return {
        status: r.status,
        bytes: Buffer.byteLength(r.body),
        has_more: body.has_more,
        ids: body.data.map((e) => e.id),
      };
    };

    /**
     * Every page of the list at `url` (after `from` when given), following `starting_after` with
     * the `url` unchanged.
     */
    async function follow(url: string, from?: string): Promise<Page[]> {
      const pages = [await page(from ? `${url}&starting_after=${from}` : url)];
      while (pages.at(-1)!.has_more) {
        const after = pages.at(-1)!.ids.at(-1)!;
        pages.push(await page(`${url}&starting_after=${after}`));
        expect(pages.length).toBeLessThan(40);
      }
      return pages;
    }

    it.each([
      ['events', ''],
      ['events with their nodes', '&expand[]=data.node'],
      ['events with expanded nodes', '&expand[]=data.node.parent'],
    ])('ends %s pages early with has_more, and the cursor goes on just after', async (_, x) => {
      for (const order of ['asc', 'desc']) {
        const pages = await follow(`/api/v1/graphs/gph_big/events?limit=1000&order=${order}${x}`);
        const ids = pages.flatMap((p) => p.ids);
        // every event once, in order, over several pages, none empty
        expect(ids).toHaveLength(eventCount);
        expect(new Set(ids).size).toBe(eventCount);
        expect(pages.length).toBeGreaterThan(3);
        for (const p of pages) {
          expect(p.ids.length).toBeGreaterThanOrEqual(1);
          // within the bound, or one item alone (the ~92 KB event)
          if (p.ids.length > 1) expect(p.bytes).toBeLessThanOrEqual(MAX * 1.05);
        }
        expect(pages.some((p) => p.ids.length === 1 && p.bytes > MAX)).toBe(true);
        const full = await page(`/api/v1/graphs/gph_big/events?limit=1000&order=${order}`);
        expect(full.ids.length).toBeLessThan(eventCount);
        expect(full.has_more).toBe(true);
      }
    });

    it.each([
      ['nodes', ''],
      ['nodes with expansions', '&expand[]=data.parent'],
    ])('ends %s pages early with has_more, and the cursor goes on just after', async (_, x) => {
      const pages = await follow(`/api/v1/graphs/gph_wide/nodes?limit=1000${x}`);
      const ids = pages.flatMap((p) => p.ids);
      expect(ids).toHaveLength(81);
      expect(new Set(ids).size).toBe(81);
      expect(pages.length).toBeGreaterThan(1);
      for (const p of pages) expect(p.bytes).toBeLessThanOrEqual(MAX * (x ? 2.1 : 1.05));
    });

    it('refuses task lists past the bound with expand_too_large, and reads one list whole', async () => {
      const tasks = '/api/v1/graphs/gph_big/events?order=desc&expand[]=data.node.tasks';
      const refused = await h.get(`${tasks}&limit=3`, { key });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({
        error: { code: 'expand_too_large', param: 'expand' },
      });
      expect((refused.json as { error: { message: string } }).error.message).toMatch(/bytes/);
      const one = await h.get(`${tasks}&limit=1`, { key });
      expect(one.status).toBe(200);
      expect(Buffer.byteLength(one.body)).toBeGreaterThan(MAX);
    });

    it.each(['children', 'descendants'])(
      'ends %s early past the bound, has_more with a url that goes on just after',
      async (path) => {
        const list = await h.get('/api/v1/graphs/gph_wide/nodes?limit=1', { key });
        const session = (list.json as { data: { id: string }[] }).data[0]!.id;
        const r = await h.get(`/api/v1/graphs/gph_wide/nodes/${session}?expand[]=${path}`, { key });
        expect(r.status).toBe(200);
        expect(Buffer.byteLength(r.body)).toBeLessThanOrEqual(MAX * 1.05);
        const expanded = (
          r.json as Record<string, { has_more: boolean; url: string; data: { id: string }[] }>
        )[path]!;
        expect(expanded.has_more).toBe(true);
        expect(expanded.data.length).toBeGreaterThanOrEqual(1);
        expect(expanded.data.length).toBeLessThan(80);
        const rest = await follow(expanded.url, expanded.data.at(-1)!.id);
        const ids = [...expanded.data.map((n) => n.id), ...rest.flatMap((p) => p.ids)];
        expect(ids).toHaveLength(80);
        expect(new Set(ids).size).toBe(80);
      },
    );

    it('ends a page read backwards (ending_before) early too, nearest items first', async () => {
      const all = (await follow('/api/v1/graphs/gph_big/events?limit=1000&order=asc')).flatMap(
        (p) => p.ids,
      );
      const last = all.at(-1)!;
      const back = await page(
        `/api/v1/graphs/gph_big/events?limit=1000&order=asc&ending_before=${last}`,
      );
      expect(back.has_more).toBe(true);
      expect(back.ids.length).toBeGreaterThanOrEqual(1);
      expect(back.ids).toEqual(all.slice(all.length - 1 - back.ids.length, -1));
    });
  });

  describe('sized to the tokens the key holds', () => {
    let h: ApiHarness;

    beforeAll(async () => {
      h = await ApiHarness.start({
        RATE_LIMIT_PER_SECOND: '1',
        RATE_LIMIT_BURST: '60',
        ACCOUNT_RATE_LIMIT: '1',
        ACCOUNT_RATE_BURST: '1000',
      });
      // 12 events of ~20 KB: 240 KB in all, about what 60 tokens pay for (60 x 4 KB)
      await h.seed('mid', largeTaskEvents(12, 10, 2_000).events, 'mid');
    });
    afterAll(() => h.stop());

    it('takes the tokens before the read: concurrent pages share what the bucket holds', async () => {
      const key = await h.key('mid');
      const answers = await Promise.all(
        [1, 2, 3].map(() => h.get('/api/v1/graphs/gph_mid/events?limit=100', { key })),
      );
      // a request that finds the bucket empty is refused before it reads
      for (const a of answers) expect([200, 429]).toContain(a.status);
      const served = answers.filter((a) => a.status === 200);
      expect(served.length).toBeGreaterThanOrEqual(1);
      const bodies = served.map((a) => a.json as { has_more: boolean; data: unknown[] });
      const bytes = served.reduce((n, a) => n + Buffer.byteLength(a.body), 0);
      // charged after the fact, each would hold all 12 events (~720 KB in all); reserved before,
      // together they hold what 60 tokens pay for and, beyond, at most one event each
      expect(bytes).toBeLessThan(60 * 4096 + 3 * 25_000);
      expect(bodies.every((b) => b.data.length >= 1)).toBe(true);
      expect(bodies.reduce((n, b) => n + b.data.length, 0)).toBeLessThan(12 * served.length);
    });

    it('gives back what a page did not use', async () => {
      const key = await h.key('mid');
      const small = await h.get('/api/v1/graphs/gph_mid/events?limit=1', { key });
      expect(small.status).toBe(200);
      expect(Number(small.headers['request-cost'])).toBeLessThan(10);
      await new Promise((r) => setTimeout(r, 100));
      const next = await h.get('/api/v1/graphs/gph_mid', { key });
      expect(Number(next.headers['ratelimit-remaining'])).toBeGreaterThan(45);
    });

    it('answers limit=1000 without an error, cut to the tokens held', async () => {
      const key = await h.key('mid');
      const r = await h.get('/api/v1/graphs/gph_mid/events?limit=1000', { key });
      expect(r.status).toBe(200);
      expect(Buffer.byteLength(r.body)).toBeLessThan(61 * 4096 + 25_000);
      expect((r.json as { has_more: boolean }).has_more).toBe(true);
    });
  });
});
