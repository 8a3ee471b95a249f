import { NoticeRepository } from '@graph-history/db';
import { noticeRun } from '../../support/notice-events';
import { seedGraph } from '../../support/seed';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** NoticeRepository on a real database: pages, filters, restricted keys, numbers, trimming. */
describe('NoticeRepository', () => {
  let t: TestDatabase;
  let notices: NoticeRepository;
  let accountId: number;
  let otherAccount: number;
  beforeAll(async () => {
    t = await createTestDatabase();
    notices = new NoticeRepository(t.db);
    ({ accountId } = await seedGraph(t.db, {
      accountName: 'nr',
      graphKey: 'nr-a',
      events: noticeRun('nr-a'),
    }));
    await seedGraph(t.db, { accountName: 'nr', graphKey: 'nr-b', events: noticeRun('nr-b') });
    ({ accountId: otherAccount } = await seedGraph(t.db, {
      accountName: 'nr-other',
      graphKey: 'nr-c',
      events: noticeRun('nr-c'),
    }));
  });
  afterAll(() => t.drop());

  const all = { accountId: 0, graphKeys: null };
  const graphOf = (body: string) => JSON.parse(body).graph_id as string;
  const typeOf = (body: string) => JSON.parse(body).type as string;

  it('pages an account’s notices newest first, and oldest first after a position', async () => {
    const f = { ...all, accountId };
    const newest = await notices.page(f, 100, {});
    expect(newest).toHaveLength(10);
    const nos = newest.map((r) => r.noticeNo);
    expect([...nos].sort((a, b) => b - a)).toEqual(nos);
    expect(newest.map((r) => graphOf(r.body))).toEqual([
      ...Array(5).fill('gph_nr-b'),
      ...Array(5).fill('gph_nr-a'),
    ]);
    expect((await notices.page(f, 3, { olderThan: nos[2] })).map((r) => r.noticeNo)).toEqual(
      nos.slice(3, 6),
    );
    expect((await notices.page(f, 2, { newerThan: nos[5] })).map((r) => r.noticeNo)).toEqual([
      nos[4],
      nos[3],
    ]);
    expect(await notices.newest(accountId)).toBe(nos[0]);
    expect(await notices.newest(9_999)).toBe(0);
  });

  it('filters by graph, by type and by what a restricted key may read', async () => {
    const f = { ...all, accountId };
    const onlyA = await notices.page({ ...f, graphKey: 'nr-a' }, 100, {});
    expect(new Set(onlyA.map((r) => graphOf(r.body)))).toEqual(new Set(['gph_nr-a']));
    const failed = await notices.page({ ...f, types: ['node.failed', 'session.ended'] }, 100, {});
    expect(failed.map((r) => typeOf(r.body))).toEqual([
      'session.ended',
      'node.failed',
      'session.ended',
      'node.failed',
    ]);
    const restricted = { ...f, graphKeys: ['nr-b'] };
    const b = await notices.page(restricted, 100, {});
    expect(b).toHaveLength(5);
    expect(new Set(b.map((r) => graphOf(r.body)))).toEqual(new Set(['gph_nr-b']));
    // a graph the restricted key may not read gives nothing, even when asked for by name
    expect(await notices.page({ ...restricted, graphKey: 'nr-a' }, 100, {})).toEqual([]);
    // another account's graph key is not this account's
    expect(await notices.page({ ...f, graphKey: 'nr-c' }, 100, {})).toEqual([]);
    expect(await notices.has(restricted, b[0]!.noticeNo)).toBe(true);
    expect(await notices.has(restricted, onlyA[0]!.noticeNo)).toBe(false);
    expect(await notices.has({ ...all, accountId: otherAccount }, b[0]!.noticeNo)).toBe(false);
  });

  it('reserves fresh increasing numbers', async () => {
    const a = await notices.reserveNumbers(accountId, 3);
    const b = await notices.reserveNumbers(accountId, 2);
    expect(a).toHaveLength(3);
    expect([...a, ...b].every((n, i, l) => i === 0 || n > l[i - 1]!)).toBe(true);
    expect(await notices.reserveNumbers(accountId, 0)).toEqual([]);
  });

  it('keeps the newest `kept` notices of the graph’s account only', async () => {
    const { accountId: acct, graphId } = await seedGraph(t.db, {
      accountName: 'nr-trim',
      graphKey: 'nr-t1',
      events: noticeRun('nr-t1'),
    });
    await seedGraph(t.db, {
      accountName: 'nr-trim',
      graphKey: 'nr-t2',
      events: noticeRun('nr-t2'),
    });
    const before = await notices.page({ ...all, accountId: acct }, 100, {});
    const otherBefore = await notices.page({ ...all, accountId }, 100, {});
    expect(before).toHaveLength(10);
    expect(await notices.trimAccountOf(graphId, 4)).toBe(6);
    expect(await notices.page({ ...all, accountId: acct }, 100, {})).toEqual(before.slice(0, 4));
    expect(await notices.trimAccountOf(graphId, 4)).toBe(0);
    expect(await notices.page({ ...all, accountId }, 100, {})).toEqual(otherBefore);
  });
});
