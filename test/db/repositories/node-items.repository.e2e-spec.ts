import type { MessageRecord, SpawnRecord, TaskItem, WaitRecord } from '@graph-history/domain';
import { NodeItemsRepository, type NodeAt } from '@graph-history/db';
import { EventScript } from '../../api/support/watch-events';
import { createTestDatabase, TestDatabase } from '../../support/test-database';
import { seedHistory, SeededHistory } from '../support/seeded-history';

/** NodeItemsRepository on the real database, against the reducer's records as of each event. */
describe('NodeItemsRepository', () => {
  let t: TestDatabase;
  let repo: NodeItemsRepository;
  let h: SeededHistory;
  let last: number;

  beforeAll(async () => {
    t = await createTestDatabase();
    repo = new NodeItemsRepository(t.db);
    const s = new EventScript();
    s.session('S')
      .tasks('S', [{ content: 'plan', status: 'in_progress' }])
      .agent('S/a', 'S', { spawn_call_id: 'c1' })
      .agent('S/b', 'S', { requested_by: 'S/a' })
      .waitStarted('S', ['S/a', 'S/b'], 'join')
      .message('S', 'S/a', 'go')
      .message('S/a', 'S', 'done')
      .tasks('S', [
        { content: 'plan', status: 'completed' },
        { content: 'ship', status: 'pending' },
      ])
      .ended('S/a')
      .waitEnded('S', ['S/a'])
      .message('S/b', 'S/a', 'late');
    h = await seedHistory(t.db, 'items', s.events);
    last = s.events.length;
  });
  afterAll(() => t.drop());

  const upTo = (seq: number) => h.applied.slice(0, seq);
  const nodes = (): NodeAt[] =>
    [1, 2, 3].flatMap((nodeNo) => Array.from({ length: last }, (_, i) => ({ nodeNo, seq: i + 1 })));

  it('tasksAt is the newest snapshot by each node’s event, empty before one', async () => {
    const expected = (n: NodeAt): TaskItem[] =>
      upTo(n.seq)
        .map((a) => a.taskSnapshot)
        .filter((x) => x?.nodeNo === n.nodeNo)
        .at(-1)?.tasks ?? [];
    const all = nodes();
    expect(await repo.tasksAt(h.graphId, all)).toEqual({ lists: all.map(expected), cut: false });
    expect(all.map(expected).some((l) => l.length === 2)).toBe(true);
  });

  it('spawnsAt lists the children each node asked for by its event, within the limit', async () => {
    const expected = (n: NodeAt): SpawnRecord[] =>
      upTo(n.seq)
        .map((a) => a.spawn)
        .filter((x): x is SpawnRecord => x?.requesterNo === n.nodeNo);
    const all = nodes();
    expect(await repo.spawnsAt(h.graphId, all, 1000)).toEqual({
      lists: all.map(expected),
      cut: false,
    });
    // the limit counts rows over all nodes, in input order
    const limited = await repo.spawnsAt(h.graphId, [{ nodeNo: 1, seq: last }], 1);
    expect(limited.lists).toEqual([expected({ nodeNo: 1, seq: last }).slice(0, 1)]);
    // a byte bound reads the first row, and says rows were left out
    const bounded = await repo.spawnsAt(h.graphId, all, 1000, 1);
    expect(bounded.cut).toBe(true);
    expect(bounded.lists.flat()).toEqual([all.map(expected).flat()[0]]);
  });

  it('waitsAt shows waits started by each event, ended only when they had ended by then', async () => {
    const expected = (n: NodeAt): WaitRecord[] => {
      const waits = upTo(n.seq).flatMap((a) => a.waitsOpened.filter((w) => w.nodeNo === n.nodeNo));
      const closed = upTo(n.seq).flatMap((a) => a.waitsClosed);
      return waits
        .map((w) => {
          const c = closed.find(
            (x) => x.nodeNo === w.nodeNo && x.onNo === w.onNo && x.startedSeq === w.startedSeq,
          );
          return c ? { ...w, endedSeq: c.endedSeq, ended: c.ended } : w;
        })
        .sort((a, b) => a.startedSeq - b.startedSeq || a.onNo - b.onNo);
    };
    const all = nodes();
    const got = await repo.waitsAt(h.graphId, all, 1000);
    expect(got).toEqual(all.map(expected));
    expect(got.flat().some((w) => w.ended !== null)).toBe(true);
    expect(got.flat().some((w) => w.ended === null)).toBe(true);
  });

  it('messagesAt lists what each node sent or received by its event, oldest first', async () => {
    const expected = (n: NodeAt): MessageRecord[] =>
      upTo(n.seq)
        .map((a) => a.message)
        .filter(
          (m): m is MessageRecord => m !== null && (m.fromNo === n.nodeNo || m.toNo === n.nodeNo),
        );
    const all = nodes();
    expect(await repo.messagesAt(h.graphId, all, 1000)).toEqual({
      lists: all.map(expected),
      cut: false,
    });
    expect((await repo.messagesAt(h.graphId, [{ nodeNo: 2, seq: last }], 2)).lists).toEqual([
      expected({ nodeNo: 2, seq: last }).slice(0, 2),
    ]);
    const bounded = await repo.messagesAt(h.graphId, all, 1000, 1);
    expect(bounded.cut).toBe(true);
    expect(bounded.lists.flat()).toEqual([all.map(expected).flat()[0]]);
  });
});
