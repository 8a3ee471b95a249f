import { sql } from 'kysely';
import { applyEvent, createGraphState } from '@graph-history/domain';
import { AccountRepository, ApplyRepository, GraphApplyLockRepository } from '@graph-history/db';
import { validRun } from '../../ingestor/support/watch-events';
import { ingestPipeline } from '../../support/ingest-pipeline';
import { rowCount } from '../../support/row-count';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** The apply statements on the real database: read the next stored events, commit once. */
describe('ApplyRepository', () => {
  let t: TestDatabase;
  let apply: ApplyRepository;
  let graphId: number;
  let accountId: number;
  let store: Awaited<ReturnType<typeof ingestPipeline>>['store'];
  const events = validRun('ar', 5);

  beforeAll(async () => {
    t = await createTestDatabase();
    apply = new ApplyRepository(t.db);
    ({ accountId } = await new AccountRepository(t.db).findOrCreate('apply', 1));
    ({ store } = await ingestPipeline(t.db));
    ({ graphId } = await store.store({ accountId, graphKey: 'ar', events }));
  });
  afterAll(() => t.drop());

  const count = (table: 'inbox' | 'events' | 'node_versions') => rowCount(t.db, table, graphId);

  it('reads the head and at most `limit` stored events after applied_seq, in seq order', async () => {
    const pending = await apply.pending(graphId, 2);
    expect(pending!.head).toEqual({
      accountId,
      graphKey: 'ar',
      ingestedSeq: 5,
      appliedSeq: 0,
      firstSeq: null,
      lastEvent: null,
      counts: null,
      stalledSeq: null,
    });
    expect(pending!.events.map((e) => [e.seq, e.event])).toEqual([
      [1, events[0]],
      [2, events[1]],
    ]);
    expect(await apply.pending(999_999, 2)).toBeNull();
  });

  it('stops a read before the event that takes the stored bodies past maxBytes, reading one at least', async () => {
    const sizes = await t.db
      .selectFrom('inbox')
      .select((eb) => eb.fn<number>('pg_column_size', ['body']).as('size'))
      .where('graph_id', '=', graphId)
      .orderBy('seq')
      .execute();
    const [a, b] = sizes.map((r) => r.size);
    const seqs = async (maxBytes: number) =>
      (await apply.pending(graphId, 5, maxBytes))!.events.map((e) => e.seq);
    expect(await seqs(1)).toEqual([1]);
    expect(await seqs(a! + b!)).toEqual([1, 2]);
    expect(await seqs(a! + b! + 1)).toEqual([1, 2, 3]);
    expect(await seqs(1e9)).toEqual([1, 2, 3, 4, 5]);
  });

  it('commits a run once: a commit after a stale applied_seq writes nothing', async () => {
    const { events: run } = (await apply.pending(graphId, 3))!;
    const state = createGraphState(graphId);
    const applied = run.map(({ seq, event }) => applyEvent(state, event, seq));
    const head = {
      appliedSeq: 3,
      firstSeq: 1,
      lastEvent: state.lastCreated,
      counts: state.counts,
    };

    const activeBefore = { staleAfterMs: 300_000, counts: [0, 1, 2] };
    expect(await apply.commitIfCurrent(graphId, 1, applied, head, 9, activeBefore)).toBe(false);
    expect([await count('events'), await count('node_versions'), await count('inbox')]).toEqual([
      0, 0, 5,
    ]);

    expect(await apply.commitIfCurrent(graphId, 0, applied, head, 9, activeBefore)).toBe(true);
    expect(await apply.commitIfCurrent(graphId, 0, applied, head, 9, activeBefore)).toBe(false);
    expect([await count('events'), await count('inbox')]).toEqual([3, 2]);
    // each event row holds its count and the threshold it was judged with
    const stored = await t.db
      .selectFrom('events')
      .select(['seq', 'active_before', 'stale_after_ms'])
      .where('graph_id', '=', graphId)
      .orderBy('seq')
      .execute();
    expect(stored).toEqual([
      { seq: 1, active_before: 0, stale_after_ms: 300_000 },
      { seq: 2, active_before: 1, stale_after_ms: 300_000 },
      { seq: 3, active_before: 2, stale_after_ms: 300_000 },
    ]);
    expect(await count('node_versions')).toBeGreaterThan(0);
    const next = await apply.pending(graphId, 10);
    expect(next!.head).toMatchObject({ appliedSeq: 3, firstSeq: 1, counts: state.counts });
    expect(next!.events.map((e) => e.seq)).toEqual([4, 5]);
    // the head, counts included, whether one, several or no stored events follow applied_seq
    expect((await apply.pending(graphId, 1))!.head).toEqual(next!.head);
    const { graphId: oneId } = await store.store({
      accountId,
      graphKey: 'ar-one',
      events: validRun('ar1', 1),
    });
    const one = createGraphState(oneId);
    const [first] = (await apply.pending(oneId, 10))!.events;
    const oneHead = { appliedSeq: 1, firstSeq: 1, lastEvent: 0, counts: one.counts };
    const appliedOne = [applyEvent(one, first!.event, 1)];
    expect(await apply.commitIfCurrent(oneId, 0, appliedOne, oneHead, 9, null)).toBe(true);
    // without counts, the columns stay null as on rows older than them
    expect(
      await t.db
        .selectFrom('events')
        .select(['active_before', 'stale_after_ms'])
        .where('graph_id', '=', oneId)
        .execute(),
    ).toEqual([{ active_before: null, stale_after_ms: null }]);
    expect((await apply.pending(oneId, 10))!).toEqual({
      head: expect.objectContaining({ appliedSeq: 1, counts: one.counts }),
      events: [],
    });
  });

  it('records a stall once, and only at the next event', async () => {
    const stall = { seq: 5, error: 'refused', at: 7 };
    expect(await apply.recordStall(graphId, 2, stall)).toBe(false);
    expect(await apply.recordStall(graphId, 3, { ...stall, seq: 4 })).toBe(true);
    expect(await apply.recordStall(graphId, 3, { ...stall, seq: 4 })).toBe(false);
    expect((await apply.pending(graphId, 1))!.head.stalledSeq).toBe(4);
  });

  it('flushes the commits made before it to disk, those that did not wait included', async () => {
    const lsn = sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`;
    const written = await t.db.transaction().execute(async (trx) => {
      // what the apply statement does for its transaction
      await sql`select set_config('synchronous_commit', 'off', true)`.execute(trx);
      await sql`update graphs set stalled_at = stalled_at where graph_id = ${graphId}`.execute(trx);
      return (await lsn.execute(trx)).rows[0]!.lsn;
    });
    await apply.flushCommitted();
    const { rows } = await sql<{ behind: boolean }>`
      select pg_current_wal_flush_lsn() < ${written}::pg_lsn as behind`.execute(t.db);
    expect(rows).toEqual([{ behind: false }]);
  });

  it('lets one session at a time hold a graph apply lock, released after', async () => {
    const lock = new GraphApplyLockRepository(t.db);
    const inner: unknown[] = [];
    const outer = await lock.withApplyLock(graphId, async () => {
      inner.push(await lock.withApplyLock(graphId, async () => 'second'));
      inner.push(await lock.withApplyLock(graphId + 1, async () => 'other graph'));
      return 'first';
    });
    expect(outer).toEqual({ value: 'first' });
    expect(inner).toEqual([null, { value: 'other graph' }]);
    expect(await lock.withApplyLock(graphId, async () => 'again')).toEqual({ value: 'again' });
  });
});
