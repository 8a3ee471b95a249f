import { decodeId, decodeNoticeId, eventId, WatchEvent } from '@graph-history/domain';
import { NoticeRepository } from '@graph-history/db';
import { seedGraph } from '../support/seed';
import { ingestPipeline } from '../support/ingest-pipeline';
import { noticeRun, NOTICE_RUN_NOTICES } from '../support/notice-events';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { storeUnchecked } from './support/store-unchecked';

/** Notices are written by the apply's own commit: one per notice-worthy change, exactly once. */
describe('notices made by the apply', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  const noticesOf = (graphId: number) =>
    t.db
      .selectFrom('notices')
      .selectAll()
      .where('graph_id', '=', graphId)
      .orderBy('notice_no')
      .execute();

  it('writes one notice per change a person should know, with its public JSON', async () => {
    const { graphId, accountId } = await seedGraph(t.db, {
      graphKey: 'n-one',
      events: noticeRun('n-one'),
    });
    const rows = await noticesOf(graphId);
    expect(rows.map((r) => [r.type, r.seq])).toEqual(
      NOTICE_RUN_NOTICES.map((n) => [n.type, n.event + 1]),
    );
    const bodies = rows.map((r) => JSON.parse(r.body));
    const first = bodies[0];
    expect(first).toEqual({
      id: expect.stringMatching(/^ntc_[A-Za-z0-9_-]{22}$/),
      object: 'notice',
      type: 'node.input_required',
      created: noticeRun('n-one')[3]!.created,
      graph_id: 'gph_n-one',
      node_id: expect.stringMatching(/^node_/),
      event_id: eventId(graphId, 4),
      url: `http://127.0.0.1:3000/graphs/gph_n-one?as_of=${eventId(graphId, 4)}&node=${first.node_id}`,
      data: {
        kind: 'agent',
        title: 'read',
        state: 'working',
        attention: {
          reason: 'permission',
          message: 'Allow rm -rf build?',
          since: expect.any(Number),
        },
        headline: null,
      },
    });
    for (const [i, body] of bodies.entries()) {
      expect(decodeNoticeId(body.id)).toEqual({ accountId, noticeNo: Number(rows[i]!.notice_no) });
      expect(decodeId('node', body.node_id)!.n).toBe(rows[i]!.node_no);
    }
    expect(bodies.map((b) => b.data.state)).toEqual([
      'working',
      'working',
      'working',
      'failed',
      'completed',
    ]);
  });

  it('writes each notice once when two appliers race for the same events', async () => {
    const { graphId, accountId } = await seedGraph(t.db, { graphKey: 'n-race', events: [] });
    const { store } = await ingestPipeline(t.db);
    await store.store({ accountId, graphKey: 'n-race', events: noticeRun('n-race') });
    const appliers = await Promise.all(
      [1, 2, 3].map(() => ingestPipeline(t.db, { APPLY_BATCH_SIZE: '2' })),
    );
    await Promise.all(appliers.map((p) => p.applier.applyPending(graphId)));
    const rows = await noticesOf(graphId);
    expect(rows.map((r) => [r.type, r.seq])).toEqual(
      NOTICE_RUN_NOTICES.map((n) => [n.type, n.event + 1]),
    );
  });

  it('reports the newest notice of each batch, for the publish after the commit', async () => {
    const { graphId, accountId } = await seedGraph(t.db, { graphKey: 'n-out', events: [] });
    const { store, applier } = await ingestPipeline(t.db, { APPLY_BATCH_SIZE: '4' });
    await store.store({ accountId, graphKey: 'n-out', events: noticeRun('n-out') });
    const batches: (number | null)[] = [];
    const outcome = await applier.applyPending(graphId, (b) =>
      batches.push(b.notices?.noticeNo ?? null),
    );
    const rows = await noticesOf(graphId);
    const nos = rows.map((r) => Number(r.notice_no));
    // events 1-4 (one notice), 5-8 (three), 9-10 (one)
    expect(batches).toEqual([nos[0], nos[3], nos[4]]);
    expect(outcome.notices).toEqual({ accountId, noticeNo: nos[4] });
  });

  it('makes an account’s notices visible in number order: reading after the newest seen misses none', async () => {
    const keys = Array.from({ length: 8 }, (_, i) => `n-order${i}`);
    const graphs: number[] = [];
    let accountId = 0;
    for (const key of keys) {
      const seeded = await seedGraph(t.db, { accountName: 'n-order', graphKey: key, events: [] });
      accountId = seeded.accountId;
      graphs.push(seeded.graphId);
      const { store } = await ingestPipeline(t.db);
      await store.store({ accountId, graphKey: key, events: noticeRun(key) });
    }
    const notices = new NoticeRepository(t.db);
    const all = { accountId, graphKeys: null };
    const seen: number[] = [];
    let applying = true;
    const reading = (async () => {
      for (;;) {
        const last = applying;
        const rows = await notices.page(all, 1_000, { newerThan: seen.at(-1) ?? 0 });
        seen.push(...rows.map((r) => r.noticeNo));
        if (!last) return;
      }
    })();
    // every event its own commit, the eight graphs at once
    await Promise.all(
      graphs.map(async (graphId) =>
        (await ingestPipeline(t.db, { APPLY_BATCH_SIZE: '1' })).applier.applyPending(graphId),
      ),
    );
    applying = false;
    await reading;
    const stored = (await notices.page(all, 1_000, {})).map((r) => r.noticeNo).reverse();
    expect(stored).toHaveLength(keys.length * NOTICE_RUN_NOTICES.length);
    expect(seen).toEqual(stored);
  });

  it('keeps the newest NOTICES_KEPT of the account when the trim job runs', async () => {
    const { graphId } = await seedGraph(t.db, {
      accountName: 'n-kept',
      graphKey: 'n-kept',
      events: noticeRun('n-kept'),
    });
    const before = await noticesOf(graphId);
    const { trimmer } = await ingestPipeline(t.db, { NOTICES_KEPT: '2' });
    await trimmer.trim(graphId);
    expect(await noticesOf(graphId)).toEqual(before.slice(-2));
  });

  it('writes graph.quarantined once, with the stall, when the next event cannot be applied', async () => {
    const events = noticeRun('n-q').slice(0, 3);
    const { graphId, accountId } = await seedGraph(t.db, { graphKey: 'n-q', events });
    const bad = {
      key: 'n-q-bad',
      type: 'status',
      created: events[2]!.created + 10,
      node: 'no-such-node',
      source: events[0]!.source,
      payload: { state: 'working' },
    } as unknown as WatchEvent;
    await storeUnchecked(t.db, graphId, bad as never);
    const first = await (await ingestPipeline(t.db)).applier.applyPending(graphId);
    expect(first.stalled).not.toBeNull();
    const again = await (await ingestPipeline(t.db)).applier.applyPending(graphId);
    expect(again.stalled).toBeNull();
    const rows = (await noticesOf(graphId)).filter((r) => r.type === 'graph.quarantined');
    expect(rows).toHaveLength(1);
    expect(first.notices).toEqual({ accountId, noticeNo: Number(rows[0]!.notice_no) });
    const body = JSON.parse(rows[0]!.body);
    expect(body).toMatchObject({
      type: 'graph.quarantined',
      graph_id: 'gph_n-q',
      node_id: null,
      event_id: null,
      url: 'http://127.0.0.1:3000/graphs/gph_n-q',
      data: { event_key: 'n-q-bad', reason: expect.stringContaining('no-such-node') },
    });
    expect(body.created).toBe(first.stalled!.at);
  });
});
