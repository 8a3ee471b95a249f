import Redis from 'ioredis';
import { decodeNoticeId, maskApiKey, noticeId } from '@graph-history/domain';
import { NoticeRepository } from '@graph-history/db';
import { publishAppliedEvents } from '@graph-history/http';
import { noticeRun } from '../support/notice-events';
import { testQueuePrefix } from '../support/redis-keys';
import { ApiHarness } from './support/api-harness';
import { startWithRedisAway } from './support/redis-away';
import { SseClient } from './support/sse-client';

interface Notice {
  id: string;
  type: string;
  graph_id: string;
}

/** GET /notices and GET /notices/stream on a real database and Redis. */
describe('read API: notices', () => {
  const queuePrefix = testQueuePrefix();
  let h: ApiHarness;
  let redis: Redis;
  let t0 = 1_700_000_000_000;

  /** Seeds a graph whose events make 5 notices, then announces them as the ingestor does. */
  async function seedNotices(key: string, account = 'acme', announce = true) {
    const { graphId, accountId } = await h.seed(key, noticeRun(key, (t0 += 1_000)), account);
    const rows = await h.t.db
      .selectFrom('notices')
      .select(['notice_no'])
      .where('graph_id', '=', graphId)
      .orderBy('notice_no', 'desc')
      .execute();
    const noticeNo = Number(rows[0]!.notice_no);
    if (announce)
      await publishAppliedEvents(redis, queuePrefix, {
        graphId,
        seq: 0,
        notices: { accountId, noticeNo },
      });
    return { graphId, accountId, noticeNo };
  }

  const listAll = async (query = '', key?: string): Promise<Notice[]> => {
    const out: Notice[] = [];
    let after = '';
    for (;;) {
      const sep = query || after ? '?' : '';
      const r = await h.get(`/api/v1/notices${sep}${[query, after].filter(Boolean).join('&')}`, {
        key,
      });
      expect(r.status).toBe(200);
      out.push(...r.json.data);
      if (!r.json.has_more) return out;
      after = `limit=2&starting_after=${out[out.length - 1]!.id}`;
    }
  };

  const open = (opts: { query?: string; key?: string; lastEventId?: string } = {}) =>
    SseClient.open(`${h.baseUrl}/api/v1/notices/stream${opts.query ?? ''}`, {
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
    await seedNotices('na');
    await seedNotices('nb');
    await seedNotices('other', 'globex');
  });
  afterAll(async () => {
    redis.disconnect();
    await h.stop();
  });

  it('lists the account’s notices newest first, with cursors both ways', async () => {
    const first = await h.get('/api/v1/notices?limit=3');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      object: 'list',
      url: '/api/v1/notices',
      as_of_event_id: null,
      has_more: true,
    });
    const all = await listAll();
    expect(all).toHaveLength(10);
    expect(all.slice(0, 3)).toEqual(first.json.data);
    expect(all.map((n) => n.graph_id)).toEqual([
      ...Array(5).fill('gph_nb'),
      ...Array(5).fill('gph_na'),
    ]);
    const nos = all.map((n) => decodeNoticeId(n.id)!.noticeNo);
    expect([...nos].sort((a, b) => b - a)).toEqual(nos);
    const next = await h.get(`/api/v1/notices?limit=3&starting_after=${all[2]!.id}`);
    expect(next.json.data).toEqual(all.slice(3, 6));
    const before = await h.get(`/api/v1/notices?limit=3&ending_before=${all[6]!.id}`);
    expect(before.json.data).toEqual(all.slice(3, 6));
    expect(before.json.has_more).toBe(true);
    const top = await h.get(`/api/v1/notices?ending_before=${all[2]!.id}`);
    expect(top.json).toMatchObject({ has_more: false, data: all.slice(0, 2) });
    // the body is the stored notice, a Notice object
    expect(all[0]).toMatchObject({
      object: 'notice',
      type: 'session.ended',
      node_id: expect.stringMatching(/^node_/),
    });
  });

  it('filters by graph and type, and refuses bad filters and cursors', async () => {
    const a = await h.get('/api/v1/notices?graph=gph_na');
    expect(a.json.url).toBe('/api/v1/notices?graph=gph_na');
    expect(new Set(a.json.data.map((n: Notice) => n.graph_id))).toEqual(new Set(['gph_na']));
    expect(a.json.data).toHaveLength(5);
    const types = await h.get('/api/v1/notices?type=node.failed,session.ended&graph=gph_nb');
    expect(types.json.data.map((n: Notice) => n.type)).toEqual(['session.ended', 'node.failed']);
    const bad = await h.get('/api/v1/notices?type=node.exploded');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
    const missing = await h.get('/api/v1/notices?graph=gph_other');
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ code: 'resource_missing', param: 'graph' });
    expect((await h.get('/api/v1/notices?graph=nope')).json.error.param).toBe('graph');
    const foreign = noticeId(999, 1);
    const cursor = await h.get(`/api/v1/notices?starting_after=${foreign}`);
    expect(cursor.status).toBe(404);
    expect(cursor.json.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    const unknown = await h.get('/api/v1/notices?order=asc');
    expect(unknown.json.error).toMatchObject({ code: 'parameter_unknown', param: 'order' });
    expect((await h.get('/api/v1/notices', { key: null })).status).toBe(401);
  });

  it('shows a restricted key the notices of its graphs only', async () => {
    const restricted = await h.key('acme', ['na']);
    const seen = await listAll('', restricted);
    expect(seen).toHaveLength(5);
    expect(new Set(seen.map((n) => n.graph_id))).toEqual(new Set(['gph_na']));
    const refused = await h.get('/api/v1/notices?graph=gph_nb', { key: restricted });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('api_key_restricted');
    // a cursor of a notice it may not see is not in its list
    const hidden = (await listAll('graph=gph_nb'))[0]!.id;
    expect(
      (await h.get(`/api/v1/notices?starting_after=${hidden}`, { key: restricted })).status,
    ).toBe(404);
  });

  it('streams: resumes after Last-Event-ID, then live notices, once each, in order', async () => {
    const before = (await listAll()).reverse();
    const c = await open({ lastEventId: before[6]!.id });
    expect(c.status).toBe(200);
    expect(c.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await c.until((x) => x.events.length >= 3);
    expect(c.events.map((m) => m.id)).toEqual(before.slice(7).map((n) => n.id));
    expect(c.events.map((m) => JSON.parse(m.data))).toEqual(before.slice(7));
    const now = await open();
    const failed = await open({ query: '?type=node.failed' });
    await seedNotices('nc');
    const after = (await listAll()).reverse();
    await c.until((x) => x.events.length >= after.length - 7);
    await now.until((x) => x.events.length >= 5);
    await failed.until((x) => x.events.length >= 1);
    expect(c.events.map((m) => m.id)).toEqual(after.slice(7).map((n) => n.id));
    expect(now.events.map((m) => m.id)).toEqual(after.slice(10).map((n) => n.id));
    expect(failed.events.map((m) => JSON.parse(m.data).type)).toEqual(['node.failed']);
    await new Promise((r) => setTimeout(r, 300));
    expect(failed.events).toHaveLength(1);
    for (const x of [c, now, failed]) x.close();
  });

  it('streams a gap message for a position older than the kept notices, then the oldest kept on', async () => {
    const key = await h.key('trimmed');
    await seedNotices('ta', 'trimmed');
    const { graphId } = await seedNotices('tb', 'trimmed');
    const all = (await listAll('', key)).reverse();
    expect(all).toHaveLength(10);
    expect(await new NoticeRepository(h.t.db).trimAccountOf(graphId, 4)).toBe(6);
    const kept = all.slice(6);
    const c = await open({ key, lastEventId: all[2]!.id });
    await c.until((x) => x.events.length >= 4);
    expect(c.messages.filter((m) => m.event !== 'message').map((m) => m.event)).toEqual(['gap']);
    expect(c.messages[0]!.event).toBe('gap');
    const gap = JSON.parse(c.messages[0]!.data);
    expect(gap).toMatchObject({
      object: 'gap',
      code: 'outside_retention_window',
      first_notice_id: kept[0]!.id,
      last_notice_id: kept[3]!.id,
    });
    expect(gap.message).toContain(all[2]!.id);
    expect(c.events.map((m) => m.id)).toEqual(kept.map((n) => n.id));
    // a kept position: no gap
    const d = await open({ key, lastEventId: kept[0]!.id });
    await d.until((x) => x.events.length >= 3);
    expect(d.messages.map((m) => m.event)).toEqual(['message', 'message', 'message']);
    c.close();
    d.close();
  });

  it('streams a restricted key only its graphs, and ends a revoked key’s stream', async () => {
    const key = await h.key('acme', ['nd']);
    const c = await open({ key });
    expect(c.status).toBe(200);
    await seedNotices('ne');
    await seedNotices('nd');
    await c.until((x) => x.events.length >= 5);
    expect(new Set(c.events.map((m) => JSON.parse(m.data).graph_id))).toEqual(new Set(['gph_nd']));
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

  it('sends heartbeats, and reads each announcement once for all of an account’s streams', async () => {
    const a = await open();
    const b = await open({ query: '?graph=gph_na' });
    await a.until((x) => x.comments >= 2);
    await new Promise((r) => setTimeout(r, 500));
    const pages = jest.spyOn(h.app.get(NoticeRepository), 'page');
    try {
      await seedNotices('nf', 'acme', false);
      pages.mockClear();
      const { graphId, accountId, noticeNo } = await seedNotices('ng', 'acme', false);
      pages.mockClear();
      await publishAppliedEvents(redis, queuePrefix, {
        graphId,
        seq: 0,
        notices: { accountId, noticeNo },
      });
      await a.until((x) => x.events.length >= 10);
      expect(pages).toHaveBeenCalledTimes(1);
    } finally {
      pages.mockRestore();
    }
    expect(b.events).toHaveLength(0);
    a.close();
    b.close();
  });
});

describe('read API: notice streams with Redis away', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startWithRedisAway();
  });
  afterAll(() => h.stop());

  it('polls Postgres: notices still arrive, in order', async () => {
    const c = await SseClient.open(`${h.baseUrl}/api/v1/notices/stream`, {
      authorization: `Bearer ${h.secret}`,
    });
    expect(c.status).toBe(200);
    await h.seed('d', noticeRun('d'));
    await c.until((x) => x.events.length >= 5);
    const list = await h.get('/api/v1/notices');
    expect(c.events.map((m) => m.id)).toEqual(list.json.data.map((n: Notice) => n.id).reverse());
    c.close();
  });
});
