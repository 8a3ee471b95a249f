import Redis from 'ioredis';
import { decodeId, eventId, maskApiKey } from '@graph-history/domain';
import { EventReadRepository } from '@graph-history/db';
import { publishAppliedEvents } from '@graph-history/http';
import { testQueuePrefix } from '../support/redis-keys';
import { ApiHarness } from './support/api-harness';
import { startWithRedisAway } from './support/redis-away';
import { SseClient } from './support/sse-client';
import { EventScript } from './support/watch-events';

/** GET /graphs/{id}/events/stream: resume, gaps, keys, fan-out, Redis away. */
describe('read API: event streams', () => {
  const queuePrefix = testQueuePrefix();
  let h: ApiHarness;
  let redis: Redis;
  let time = 1_700_000_000_000;
  const graphIds = new Map<string, number>();

  /** Appends `n` events to graph `key` (applied, as the ingestor does), then announces them. */
  async function append(key: string, n: number, announce = true): Promise<void> {
    const s = new EventScript(time);
    if (!graphIds.has(key)) s.session(key);
    while (s.events.length < n) s.activity(key);
    time = s.time;
    const { graphId } = await h.seed(key, s.events);
    graphIds.set(key, graphId);
    if (announce) await publish(key, await newestSeq(key));
  }

  const publish = (key: string, seq: number) =>
    publishAppliedEvents(redis, queuePrefix, { graphId: graphIds.get(key)!, seq });

  const newestSeq = async (key: string): Promise<number> => {
    const newest = (await h.get(`/api/v1/graphs/gph_${key}/events?limit=1`)).json.data[0].id;
    return decodeId('evt', newest)!.n;
  };

  const listIds = async (key: string): Promise<string[]> => {
    const ids: string[] = [];
    let after = '';
    for (;;) {
      const r = await h.get(`/api/v1/graphs/gph_${key}/events?order=asc&limit=100${after}`);
      ids.push(...r.json.data.map((e: { id: string }) => e.id));
      if (!r.json.has_more) return ids;
      after = `&starting_after=${ids[ids.length - 1]}`;
    }
  };

  const open = (key: string, opts: { query?: string; key?: string; lastEventId?: string } = {}) =>
    SseClient.open(`${h.baseUrl}/api/v1/graphs/gph_${key}/events/stream${opts.query ?? ''}`, {
      authorization: `Bearer ${opts.key ?? h.secret}`,
      ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}),
    });

  beforeAll(async () => {
    h = await ApiHarness.start({
      QUEUE_PREFIX: queuePrefix,
      STREAM_POLL_MS: '200',
      STREAM_KEY_CHECK_MS: '500',
      STREAM_HEARTBEAT_MS: '400',
    });
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(async () => {
    redis.disconnect();
    await h.stop();
  });

  it('resumes after Last-Event-ID: every later event once, in order, then live ones', async () => {
    await append('r', 5);
    const before = await listIds('r');
    const list = await h.get('/api/v1/graphs/gph_r/events?order=asc');
    const c = await open('r', { lastEventId: before[1]! });
    expect(c.status).toBe(200);
    expect(c.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await c.until((x) => x.events.length >= 3);
    expect(c.events.map((m) => m.id)).toEqual(before.slice(2));
    // data is the Event object exactly as the list returns it
    expect(c.events.map((m) => JSON.parse(m.data))).toEqual(list.json.data.slice(2));
    await append('r', 3);
    const after = await listIds('r');
    await c.until((x) => x.events.length >= after.length - 2);
    expect(c.events.map((m) => m.id)).toEqual(after.slice(2));
    c.close();
  });

  it('starts from now without a position, and from starting_after when given', async () => {
    await append('n', 3);
    const now = await open('n');
    const from = await open('n', { query: `?starting_after=${(await listIds('n'))[0]}` });
    await from.until((x) => x.events.length >= 2);
    await append('n', 2);
    const ids = await listIds('n');
    await now.until((x) => x.events.length >= 2);
    await from.until((x) => x.events.length >= 4);
    expect(now.events.map((m) => m.id)).toEqual(ids.slice(3));
    expect(from.events.map((m) => m.id)).toEqual(ids.slice(1));
    now.close();
    from.close();
  });

  it('expands data.node like the list', async () => {
    await append('x', 2);
    const ids = await listIds('x');
    const c = await open('x', { query: `?expand[]=data.node&starting_after=${ids[0]}` });
    await c.until((x) => x.events.length >= 1);
    const listed = await h.get(
      `/api/v1/graphs/gph_x/events?order=asc&expand[]=data.node&starting_after=${ids[0]}`,
    );
    expect(JSON.parse(c.events[0]!.data)).toEqual(listed.json.data[0]);
    expect(JSON.parse(c.events[0]!.data).data.node.object).toBe('node');
    c.close();
  });

  it('a trimmed position gives one gap message, then the oldest retained event on', async () => {
    await append('t', 2_300);
    const retained = await listIds('t');
    const first = eventId(graphIds.get('t')!, 1);
    expect((await h.get(`/api/v1/graphs/gph_t/events?starting_after=${first}`)).status).toBe(410);
    const c = await open('t', { lastEventId: first });
    await c.until((x) => x.events.length >= retained.length);
    const gap = c.messages[0]!;
    expect(gap.event).toBe('gap');
    expect(JSON.parse(gap.data)).toMatchObject({
      object: 'gap',
      code: 'outside_retention_window',
      first_event_id: retained[0],
      last_event_id: retained[retained.length - 1],
    });
    expect(c.messages.filter((m) => m.event === 'gap')).toHaveLength(1);
    expect(c.events.map((m) => m.id)).toEqual(retained);
    c.close();
  });

  it('refuses restricted keys for other graphs, and admits them for theirs', async () => {
    await append('own', 1);
    const restricted = await h.key('acme', ['own']);
    const refused = await open('r', { key: restricted });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error.code).toBe('api_key_restricted');
    const admitted = await open('own', { key: restricted });
    expect(admitted.status).toBe(200);
    admitted.close();
    const none = await SseClient.open(`${h.baseUrl}/api/v1/graphs/gph_own/events/stream`, {});
    expect(none.status).toBe(401);
  });

  it("ends a revoked key's streams", async () => {
    await append('v', 1);
    const key = await h.key('acme');
    const c = await open('v', { key });
    expect(c.status).toBe(200);
    await h.t.db
      .updateTable('api_keys')
      .set({ revoked: Date.now() })
      .where('masked', '=', maskApiKey(key))
      .execute();
    await c.until((x) => x.ended, 10_000);
    const last = c.messages[c.messages.length - 1]!;
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data).error.code).toBe('api_key_invalid');
  });

  it('sends heartbeats on idle streams', async () => {
    await append('hb', 1);
    const c = await open('hb');
    await c.until((x) => x.comments >= 2);
    c.close();
  });

  it('two subscribers of a graph get every event once, with one read per notification', async () => {
    await append('f', 1);
    const a = await open('f');
    const b = await open('f');
    await append('f', 1);
    await a.until((x) => x.events.length >= 1);
    await b.until((x) => x.events.length >= 1);
    // catch-ups and the first polls after the subscription settle
    await new Promise((r) => setTimeout(r, 1_000));
    const pages = jest.spyOn(h.app.get(EventReadRepository), 'pageJson');
    try {
      for (let round = 2; round <= 4; round++) {
        await append('f', 1, false);
        const seq = await newestSeq('f');
        pages.mockClear();
        await publish('f', seq);
        await a.until((x) => x.events.length >= round);
        await b.until((x) => x.events.length >= round);
        expect(pages).toHaveBeenCalledTimes(1);
      }
    } finally {
      pages.mockRestore();
    }
    const ids = (await listIds('f')).slice(1);
    expect(a.events.map((m) => m.id)).toEqual(ids);
    expect(b.events.map((m) => m.id)).toEqual(ids);
    a.close();
    b.close();
  });
});

describe('read API: event streams with Redis away', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startWithRedisAway();
  });
  afterAll(() => h.stop());

  it('polls Postgres: events still arrive, in order', async () => {
    const s = new EventScript();
    s.session('d');
    await h.seed('d', s.events);
    const c = await SseClient.open(`${h.baseUrl}/api/v1/graphs/gph_d/events/stream`, {
      authorization: `Bearer ${h.secret}`,
    });
    expect(c.status).toBe(200);
    const more = new EventScript(s.time);
    more.activity('d').activity('d');
    await h.seed('d', more.events);
    await c.until((x) => x.events.length >= 2);
    const list = await h.get('/api/v1/graphs/gph_d/events?order=asc');
    expect(c.events.map((m) => m.id)).toEqual(
      list.json.data.slice(1).map((e: { id: string }) => e.id),
    );
    c.close();
  });
});
