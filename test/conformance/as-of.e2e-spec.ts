import { expectApiError } from './support/contract';
import { type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

const T = 1_763_770_000_000;
const STALE_AFTER_MS = 300_000;
type Item = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** read-api.md `as_of` (4.2, 4.3) and decisions.md "as_of", including `stale` at the read's moment. */
describe('conformance: as_of', () => {
  let s: Services;
  let acme: IssuedKey;
  /** e0 … e4, oldest first. */
  let e: string[];
  const node: Record<string, string> = {};
  let otherGraphEvent: string;

  beforeAll(async () => {
    s = await Services.start();
    acme = await s.createKey('acme');
    const events = [
      ...new WatchScript(T).session('S').events, // e0 at T
      ...new WatchScript(T + 1_000).session('R').events, // e1 at T+1s
      ...new WatchScript(T + 2_000).status('S', 'idle', 'paused').events, // e2 at T+2s
      ...new WatchScript(T + 600_000).agent('R/a', 'R').events, // e3 at T+10min
      ...new WatchScript(T + 601_000).status('S', 'working', 'back').events, // e4 at T+10min+1s
    ];
    await s.load(acme, 'ao', events);
    await s.load(acme, 'ao-other', new WatchScript().session('X').events);
    e = (await s.read('/graphs/gph_ao/events?order=asc', acme.auth)).data.map((x: Item) => x.id);
    for (const n of (await s.read('/graphs/gph_ao/nodes', acme.auth)).data)
      node[n.provider_ref] = n.id;
    otherGraphEvent = (await s.read('/graphs/gph_ao-other/events', acme.auth)).data[0].id;
  }, 90_000);
  afterAll(() => s?.stop());

  const graph = (asOf: string | number) => s.get(`/graphs/gph_ao?as_of=${asOf}`, acme.auth);
  const readNode = (ref: string, asOf: string | number) =>
    s.get(`/graphs/gph_ao/nodes/${node[ref]}?as_of=${asOf}`, acme.auth);

  describe('by event id', () => {
    it('reads the graph just after that event', async () => {
      const g = (await graph(e[0]!)).body;
      expect(g.as_of_event_id).toBe(e[0]);
      expect(g.counts).toMatchObject({ nodes: 1, sessions: 1, agents: 0 });
      expect(g.retention.last_event_id).toBe(e[4]);
      const later = (await graph(e[3]!)).body;
      expect(later.counts).toMatchObject({ nodes: 3, agents: 1 });
    });

    it('reads a node just after that event', async () => {
      const n = (await readNode('S', e[2]!)).body;
      expect(n).toMatchObject({
        as_of_event_id: e[2],
        state: 'idle',
        summary: 'paused',
        last_event: T + 2_000,
      });
      expect((await readNode('S', e[4]!)).body).toMatchObject({
        state: 'working',
        summary: 'back',
      });
    });

    it('answers a node created later with 404 node_not_yet_created carrying first_event_id', async () => {
      const err = expectApiError(await readNode('R', e[0]!), {
        status: 404,
        type: 'invalid_request_error',
        code: 'node_not_yet_created',
        param: 'as_of',
      });
      expect(err.first_event_id).toBe(e[1]);
      const byTime = expectApiError(await readNode('R/a', T + 500_000), {
        status: 404,
        type: 'invalid_request_error',
        code: 'node_not_yet_created',
        param: 'as_of',
      });
      expect(byTime.first_event_id).toBe(e[3]);
    });

    it.each([
      ['an event of another graph', () => otherGraphEvent],
      ['an event id that never existed', () => 'evt_zzzzzzzz'],
    ])('answers %s with 404 resource_missing, param as_of', async (_what, id) => {
      expectApiError(await graph(id()), {
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'as_of',
      });
      expectApiError(await readNode('S', id()), {
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'as_of',
      });
    });
  });

  describe('by time', () => {
    it.each([
      [T, 0],
      [T + 999, 0],
      [T + 1_000, 1],
      [T + 1_500, 1],
      [T + 599_999, 2],
      [T + 10_000_000, 4],
    ])('as_of=%s reads the state after the last event at or before it', async (time, index) => {
      const res = await graph(time);
      expect(res.status).toBe(200);
      expect(res.body.as_of_event_id).toBe(e[index]);
    });

    it('answers a time before the oldest retained event with 410 outside_retention_window and its bounds', async () => {
      const err = expectApiError(await graph(T - 1), {
        status: 410,
        type: 'invalid_request_error',
        code: 'outside_retention_window',
        param: 'as_of',
      });
      expect(err.first_event_id).toBe(e[0]);
      expect(err.last_event_id).toBe(e[4]);
    });

    it('refuses a time in the future with parameter_invalid', async () => {
      expectApiError(await graph(Date.now() + 60_000), {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'as_of',
      });
    });

    it.each(['abc', '12a', '-5', '1.5', '', 'evt', '0x10', ' 123'])(
      'refuses as_of=%j with parameter_invalid',
      async (value) => {
        expectApiError(
          await s.get(`/graphs/gph_ao?as_of=${encodeURIComponent(value)}`, acme.auth),
          {
            status: 400,
            type: 'invalid_request_error',
            code: 'parameter_invalid',
            param: 'as_of',
          },
        );
      },
    );
  });

  describe('lists', () => {
    it('lists nodes as of an event, and pins as_of in the url of a list read without it', async () => {
      const then = await s.read(`/graphs/gph_ao/nodes?as_of=${e[2]}`, acme.auth);
      expect(then.as_of_event_id).toBe(e[2]);
      expect(then.data.map((n: Item) => n.provider_ref)).toEqual(['S', 'R']);
      expect(then.url).toContain(`as_of=${e[2]}`);
      const now = await s.read('/graphs/gph_ao/nodes', acme.auth);
      expect(now.url).toContain(`as_of=${e[4]}`);
    });

    it('lists events up to the as_of event', async () => {
      const then = await s.read(`/graphs/gph_ao/events?as_of=${e[2]}`, acme.auth);
      expect(then.data.map((x: Item) => x.id)).toEqual([e[2], e[1], e[0]]);
    });
  });

  describe('stale is judged at the moment of the read', () => {
    it('for an event id: just before the next event', async () => {
      // S is read just before e1 (1 s of silence); R just before e3 (599 s of silence).
      expect((await readNode('S', e[0]!)).body.stale).toBe(false);
      expect((await readNode('R', e[2]!)).body.stale).toBe(true);
      expect((await graph(e[2]!)).body.counts.stale).toBe(1);
      expect((await graph(e[1]!)).body.counts.stale).toBe(0);
    });

    it('for a time: at that time, on both sides of the threshold', async () => {
      const silentSince = T + 1_000; // R's last event
      expect((await readNode('R', silentSince + STALE_AFTER_MS - 1)).body.stale).toBe(false);
      expect((await readNode('R', silentSince + STALE_AFTER_MS + 1)).body.stale).toBe(true);
      expect((await graph(silentSince + STALE_AFTER_MS - 1)).body.counts.stale).toBe(0);
      expect((await graph(silentSince + STALE_AFTER_MS + 1)).body.counts.stale).toBe(1);
    });

    it('only for working nodes', async () => {
      expect((await readNode('S', T + 500_000)).body).toMatchObject({
        state: 'idle',
        stale: false,
      });
    });

    it('agrees between a read without as_of and a read as of the newest event', async () => {
      for (const path of [
        '/graphs/gph_ao',
        `/graphs/gph_ao/nodes/${node.S}`,
        `/graphs/gph_ao/nodes/${node['R/a']}`,
      ]) {
        const now = await s.read(path, acme.auth);
        const pinned = await s.read(`${path}?as_of=${e[4]}`, acme.auth);
        expect(pinned).toEqual(now);
      }
      expect((await s.read(`/graphs/gph_ao/nodes/${node.S}`, acme.auth)).stale).toBe(true);
    });
  });
});
