import { Db, TrimRepository } from '@graph-history/db';
import { chattyRun, validRun } from '../../ingestor/support/watch-events';
import { rowCount } from '../../support/row-count';
import { seedGraph } from '../../support/seed';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

const EVENTS = 60;
const CUT = 31;

/** For every retained seq, which version row and task snapshot of each node an as_of there reads. */
async function reachable(db: Db, graphId: number, fromSeq: number): Promise<string[]> {
  const versions = await db
    .selectFrom('node_versions')
    .select(['node_no', 'valid_from'])
    .where('graph_id', '=', graphId)
    .execute();
  const snapshots = await db
    .selectFrom('task_snapshots')
    .select(['node_no', 'seq'])
    .where('graph_id', '=', graphId)
    .execute();
  const seen: string[] = [];
  for (let seq = fromSeq; seq <= EVENTS; seq++) {
    const newest = new Map<string, number>();
    for (const v of versions.map((r) => ['v', r.node_no, r.valid_from] as const))
      keepNewest(newest, v, seq);
    for (const s of snapshots.map((r) => ['t', r.node_no, r.seq] as const))
      keepNewest(newest, s, seq);
    for (const [node, at] of [...newest].sort()) seen.push(`${seq}:${node}@${at}`);
  }
  return seen;
}

function keepNewest(
  newest: Map<string, number>,
  [kind, node, at]: readonly [string, number, number],
  asOf: number,
) {
  const key = `${kind}${node}`;
  if (at <= asOf && at > (newest.get(key) ?? -1)) newest.set(key, at);
}

/** Trimming on the real database: what it deletes, what it must keep, and its progress. */
describe('TrimRepository', () => {
  let t: TestDatabase;
  let trim: TrimRepository;

  beforeAll(async () => {
    t = await createTestDatabase();
    trim = new TrimRepository(t.db);
  });
  afterAll(() => t.drop());

  const seed = async (graphKey: string) =>
    (await seedGraph(t.db, { graphKey, events: validRun(graphKey, EVENTS) })).graphId;

  const chunk = (graphId: number, from: number, to: number, keysKept = 1_000) =>
    t.db.transaction().execute((trx) => trim.in(trx).trimChunk(graphId, from, to, keysKept));

  it('reports progress: the retained range starts at the first event, trimmed up to it', async () => {
    const graphId = await seed('progress');
    expect(await trim.progress(graphId)).toEqual({ firstSeq: 1, trimmedSeq: 1 });
    expect(await trim.progress(999_999)).toBeNull();
  });

  it('deletes the events before the cut and every row no as_of after it reaches', async () => {
    const graphId = await seed('cut');
    const before = await reachable(t.db, graphId, CUT);
    const rows = async () =>
      (await rowCount(t.db, 'events', graphId)) +
      (await rowCount(t.db, 'node_versions', graphId)) +
      (await rowCount(t.db, 'task_snapshots', graphId));
    const rowsBefore = await rows();

    const deleted = await chunk(graphId, 0, CUT);

    const seqs = await t.db
      .selectFrom('events')
      .select('seq')
      .where('graph_id', '=', graphId)
      .orderBy('seq')
      .execute();
    expect(seqs.map((r) => r.seq)).toEqual(
      Array.from({ length: EVENTS - CUT + 1 }, (_, i) => CUT + i),
    );
    expect(await reachable(t.db, graphId, CUT)).toEqual(before);
    expect(deleted).toBe(rowsBefore - (await rows()));
    expect(deleted).toBeGreaterThan(CUT - 1); // superseded versions went too, not only events
    expect((await trim.progress(graphId))!.trimmedSeq).toBe(CUT);
  });

  it('leaves the same rows whether the range is trimmed in one chunk or several', async () => {
    const [whole, pieces] = [await seed('whole'), await seed('pieces')];
    await chunk(whole, 0, CUT);
    for (const [from, to] of [
      [0, 7],
      [7, 8],
      [8, 30],
      [30, CUT],
    ] as const)
      await chunk(pieces, from, to);
    const left = async (graphId: number) =>
      (
        await t.db
          .selectFrom('node_versions')
          .select(['node_no', 'valid_from'])
          .where('graph_id', '=', graphId)
          .orderBy('node_no')
          .orderBy('valid_from')
          .execute()
      ).map((r) => `${r.node_no}@${r.valid_from}`);
    expect(await left(pieces)).toEqual(await left(whole));
    expect(await rowCount(t.db, 'task_snapshots', pieces)).toBe(
      await rowCount(t.db, 'task_snapshots', whole),
    );
  });

  it('never moves trimmed_seq back, and a repeated chunk deletes nothing', async () => {
    const graphId = await seed('again');
    await chunk(graphId, 0, CUT);
    expect(await chunk(graphId, 0, CUT)).toBe(0);
    await chunk(graphId, 0, 5);
    expect((await trim.progress(graphId))!.trimmedSeq).toBe(CUT);
  });

  it('deletes messages sent and waits ended before the cut, and keys beyond the cap', async () => {
    const { graphId } = await seedGraph(t.db, {
      graphKey: 'chat',
      events: chattyRun('chat', EVENTS),
    });
    const seqsOf = async (table: 'messages' | 'event_keys') =>
      (
        await t.db
          .selectFrom(table)
          .select('seq')
          .where('graph_id', '=', graphId)
          .orderBy('seq')
          .execute()
      ).map((r) => r.seq);
    const waitsOf = async () =>
      (
        await t.db
          .selectFrom('waits')
          .select(['started_seq', 'ended_seq'])
          .where('graph_id', '=', graphId)
          .orderBy('started_seq')
          .execute()
      ).map((w) => [w.started_seq, w.ended_seq]);
    const [messages, waits, keys] = [
      await seqsOf('messages'),
      await waitsOf(),
      await seqsOf('event_keys'),
    ];
    expect(messages.length).toBeGreaterThan(15);
    expect(waits.length).toBeGreaterThan(15);

    await chunk(graphId, 0, CUT, 10);

    expect(await seqsOf('messages')).toEqual(messages.filter((seq) => seq >= CUT));
    expect(await waitsOf()).toEqual(waits.filter(([, ended]) => ended === null || ended! >= CUT));
    expect(await seqsOf('event_keys')).toEqual(keys.filter((seq) => seq >= CUT - 10));
  });
});
