import {
  AuthenticationError,
  GraphHistory,
  type Notice,
  type NoticeStreamItem,
} from '@graph-history/client';
import { createDb, NoticeRepository } from '@graph-history/db';
import { type IssuedKey, Services } from '../conformance/support/services';
import { noticeRun, NOTICE_RUN_NOTICES } from '../support/notice-events';
import { TcpProxy } from '../support/tcp-proxy';
import { waitUntil } from '../support/wait';

/** notices.list and notices.stream against the started services (ingestor and API processes). */
describe('client: notices', () => {
  let s: Services;
  let key: IssuedKey;
  let proxy: TcpProxy;
  let client: GraphHistory;
  let t0 = 1_763_770_000_000;

  /** Sends a run whose events make five notices, and waits until it is applied. */
  const sendRun = (graphKey: string, k: IssuedKey = key) =>
    s.load(k, graphKey, noticeRun(graphKey, (t0 += 1_000)));

  beforeAll(async () => {
    s = await Services.start();
    key = await s.createKey('notices');
    proxy = await TcpProxy.start(s.apiBaseUrl);
    client = new GraphHistory({ apiKey: key.key, baseUrl: proxy.baseUrl });
  }, 90_000);
  afterAll(async () => {
    await proxy?.stop();
    await s?.stop();
  });

  const running = new Set<AbortController>();
  afterEach(() => running.forEach((stop) => stop.abort()));

  function collect(
    options: Parameters<GraphHistory['notices']['stream']>[0] = {},
    reader: GraphHistory = client,
  ) {
    const items: Notice[] = [];
    const gaps: NoticeStreamItem[] = [];
    const stop = new AbortController();
    running.add(stop);
    const done = (async () => {
      for await (const n of reader.notices.stream({ ...options, signal: stop.signal }))
        if (n.object === 'notice') items.push(n);
        else gaps.push(n);
    })();
    return { items, gaps, done, stop };
  }

  it('lists notices newest first, paging through them, with filters', async () => {
    await sendRun('cl-a');
    await sendRun('cl-b');
    const all: Notice[] = [];
    for await (const n of client.notices.list({ limit: 3 })) all.push(n);
    expect(all.map((n) => n.graph_id)).toEqual([
      ...Array(5).fill('gph_cl-b'),
      ...Array(5).fill('gph_cl-a'),
    ]);
    expect(
      all
        .slice(5)
        .map((n) => n.type)
        .reverse(),
    ).toEqual(NOTICE_RUN_NOTICES.map((n) => n.type));
    const some: Notice[] = [];
    for await (const n of client.notices.list({
      graph: 'gph_cl-a',
      type: ['node.failed', 'session.ended'],
    }))
      some.push(n);
    expect(some.map((n) => [n.graph_id, n.type])).toEqual([
      ['gph_cl-a', 'session.ended'],
      ['gph_cl-a', 'node.failed'],
    ]);
  }, 60_000);

  it('streams new notices once each, in order, resuming with the last id across broken connections', async () => {
    const opened = proxy.opened;
    const { items, done, stop } = collect();
    // it follows from when it started: runs are sent until one reaches it
    for (let probe = 0; items.length === 0; probe++) {
      if (probe > 40) throw new Error('no notice reached the stream');
      await sendRun(`cl-probe${probe}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    for (let round = 1; round <= 3; round++) {
      const before = items.length;
      await sendRun(`cl-cut${round}`);
      await waitUntil(`round ${round}`, async () => items.length >= before + 3);
      proxy.cut();
    }
    await sendRun('cl-cut4');
    await waitUntil(
      'every notice',
      async () =>
        items.at(-1)?.graph_id === 'gph_cl-cut4' && items.at(-1)?.type === 'session.ended',
    );
    await new Promise((r) => setTimeout(r, 300));
    stop.abort();
    await done;
    const all = (await client.notices.list({ limit: 100 }).toArray({ limit: 1_000 })).reverse();
    const from = all.findIndex((n) => n.id === items[0]!.id);
    expect(from).toBeGreaterThanOrEqual(0);
    expect(items.map((n) => n.id)).toEqual(all.slice(from).map((n) => n.id));
    expect(items.filter((n) => n.graph_id.startsWith('gph_cl-cut'))).toHaveLength(20);
    expect(proxy.opened - opened).toBeGreaterThanOrEqual(4);
  }, 90_000);

  it('streams only the filtered notices, from a given position', async () => {
    const [newest] = await client.notices.list({ limit: 1 }).toArray({ limit: 1 });
    const { items, done, stop } = collect({ type: 'node.failed', after: newest!.id });
    await sendRun('cl-f');
    await waitUntil('the failure', async () => items.length >= 1);
    await new Promise((r) => setTimeout(r, 500));
    stop.abort();
    await done;
    expect(items.map((n) => [n.graph_id, n.type])).toEqual([['gph_cl-f', 'node.failed']]);
  }, 60_000);

  it('yields a gap where notices were dropped before it read them, then the oldest kept on', async () => {
    const own = await s.createKey('notices-gap');
    const reader = new GraphHistory({ apiKey: own.key, baseUrl: s.apiBaseUrl });
    await sendRun('cl-gap-a', own);
    await sendRun('cl-gap-b', own);
    const all = (await reader.notices.list({ limit: 100 }).toArray({ limit: 100 })).reverse();
    expect(all).toHaveLength(10);
    const db = createDb(s.databaseUrl, { max: 1 });
    try {
      const graph = await db
        .selectFrom('graphs')
        .select('graph_id')
        .where('graph_key', '=', 'cl-gap-b')
        .executeTakeFirstOrThrow();
      expect(await new NoticeRepository(db).trimAccountOf(graph.graph_id, 4)).toBe(6);
    } finally {
      await db.destroy();
    }
    const { items, gaps, done, stop } = collect({ after: all[2]!.id }, reader);
    await waitUntil('the kept notices', async () => items.length >= 4);
    await new Promise((r) => setTimeout(r, 300));
    stop.abort();
    await done;
    expect(gaps).toEqual([
      {
        object: 'notice_gap',
        after: all[2]!.id,
        first_notice_id: all[6]!.id,
        last_notice_id: all[9]!.id,
      },
    ]);
    expect(items.map((n) => n.id)).toEqual(all.slice(6).map((n) => n.id));
  }, 60_000);

  it('ends with an AuthenticationError once its key is revoked', async () => {
    const revoked = await s.createKey('notices');
    const reader = new GraphHistory({ apiKey: revoked.key, baseUrl: s.apiBaseUrl });
    const reading = (async () => {
      for await (const _ of reader.notices.stream()) void _;
    })();
    await new Promise((r) => setTimeout(r, 300));
    const revokedAt = Date.now();
    await s.revokeKey(revoked.id);
    const error = await reading.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
  }, 60_000);
});
