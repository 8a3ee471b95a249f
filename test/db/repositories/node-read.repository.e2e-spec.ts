import { descendantsUpperBound, storedNodeJson, type NodeRecord } from '@graph-history/domain';
import { createDb, NodeReadRepository, type NodeListFilter } from '@graph-history/db';
import { EventScript } from '../../api/support/watch-events';
import { createTestDatabase, TestDatabase } from '../../support/test-database';
import { seedHistory, SeededHistory } from '../support/seeded-history';

/** NodeReadRepository on the real database, against the reducer's state as of every event. */
describe('NodeReadRepository', () => {
  let t: TestDatabase;
  let repo: NodeReadRepository;
  let h: SeededHistory;
  let last: number;

  beforeAll(async () => {
    t = await createTestDatabase();
    repo = new NodeReadRepository(t.db);
    const s = new EventScript();
    s.session('S', { title: 'root' })
      .agent('S/a', 'S')
      .agent('S/b', 'S', { background: false })
      .agent('S/a/c', 'S/a')
      .status('S/a', 'input_required', 'asks')
      .agent('S/a/d', 'S/a')
      .waitStarted('S', ['S/a'], 'join')
      .status('S/b', 'idle')
      .ended('S/a/c')
      .session('T')
      .agent('T/x', 'T')
      .status('S/a', 'working');
    h = await seedHistory(t.db, 'nodes', s.events);
    last = s.events.length;
  });
  afterAll(() => t.drop());

  const seqs = () => Array.from({ length: last }, (_, i) => i + 1);
  const sorted = (recs: Iterable<NodeRecord>, order: 'created' | 'tree') =>
    [...recs].sort((a, b) =>
      order === 'created'
        ? a.no - b.no
        : a.sortKey < b.sortKey
          ? -1
          : a.sortKey > b.sortKey
            ? 1
            : 0,
    );

  it('findAt reads every node as the reducer held it after each event, null before it existed', async () => {
    for (const seq of seqs()) {
      for (const no of h.nodesAt(last).keys()) {
        expect(await repo.findAt(h.graphId, no, seq)).toEqual(h.nodesAt(seq).get(no) ?? null);
      }
    }
  });

  it('createdSeq is the event that created the node; null for a number never used', async () => {
    for (const no of h.nodesAt(last).keys()) {
      const first = seqs().find((seq) => h.nodesAt(seq).has(no));
      expect(await repo.createdSeq(h.graphId, no)).toBe(first);
    }
    expect(await repo.createdSeq(h.graphId, 999)).toBeNull();
  });

  it('findManyAt answers each node at its own event, in input order', async () => {
    const items = [
      { nodeNo: 4, seq: 3 },
      { nodeNo: 1, seq: 1 },
      { nodeNo: 4, seq: last },
      { nodeNo: 2, seq: 7 },
    ];
    expect(await repo.findManyAt(h.graphId, items)).toEqual(
      items.map((i) => h.nodesAt(i.seq).get(i.nodeNo) ?? null),
    );
    expect(await repo.findManyAt(h.graphId, [])).toEqual([]);
  });

  it('findWithGraph reads the graph, the node as of the event asked for and the next event’s time', async () => {
    const at5 = await repo.findWithGraph(h.graphId, 2, 5);
    expect(at5).toMatchObject({
      graph: { graphId: h.graphId, graphKey: 'nodes', appliedSeq: last, source: 'watch' },
      seq: 5,
      node: { json: storedNodeJson(h.graphId, h.nodesAt(5).get(2)!) },
      record: h.nodesAt(5).get(2),
      nextCreated: h.applied[5]!.event.created,
    });
    const now = await repo.findWithGraph(h.graphId, 2, null);
    expect(now).toMatchObject({
      seq: last,
      record: h.nodesAt(last).get(2),
      nextCreated: null,
    });
    // as stored JSON only, with what stale is judged by
    const json = await repo.findWithGraph(h.graphId, 2, 5, false);
    const rec = h.nodesAt(5).get(2)!;
    expect(json?.node).toEqual({
      json: storedNodeJson(h.graphId, rec),
      state: rec.state,
      lastEvent: rec.lastEvent,
    });
    expect(json?.record).toBeNull();
    // a later event than the newest reads the newest
    expect(await repo.findWithGraph(h.graphId, 2, last + 5)).toMatchObject({ seq: last });
    expect(await repo.findWithGraph(h.graphId, 99, null)).toMatchObject({
      node: null,
      record: null,
    });
    expect(await repo.findWithGraph(h.graphId + 1000, 1, null)).toBeNull();
  });

  it('findWithGraph reads the next event’s time wherever stale may need it', async () => {
    for (let seq = 1; seq < last; seq++) {
      const next = h.applied[seq]!.event.created;
      for (const no of [1, 2, 3, 99]) {
        const rec = h.nodesAt(seq).get(no);
        // a record (for expansions) always; stored JSON only of a working node or none
        expect((await repo.findWithGraph(h.graphId, no, seq))?.nextCreated).toBe(next);
        const plain = await repo.findWithGraph(h.graphId, no, seq, false);
        expect(plain?.nextCreated).toBe(!rec || rec.state === 'working' ? next : null);
        expect(plain?.node?.state).toBe(rec?.state);
      }
    }
  });

  it('findWithGraph answers reads made together (one statement) as it answers each alone', async () => {
    const reads: [number, number, number | null, boolean][] = [];
    for (const graphId of [h.graphId, h.graphId + 1000])
      for (const no of [1, 2, 3, 99])
        for (const seq of [1, 4, last - 1, null, last + 5])
          for (const objects of [true, false]) reads.push([graphId, no, seq, objects]);
    const alone = [];
    for (const r of reads) alone.push(await repo.findWithGraph(...r));
    const together = await Promise.all(reads.map((r) => repo.findWithGraph(...r)));
    expect(together).toEqual(alone);
    // per graph (READ_BATCH_SCOPE=graph): the same answers
    const perGraph = createDb(t.url, { max: 2, batchScope: 'graph' });
    try {
      const byGraph = new NodeReadRepository(perGraph);
      expect(await Promise.all(reads.map((r) => byGraph.findWithGraph(...r)))).toEqual(alone);
    } finally {
      await perGraph.destroy();
    }
    expect(alone.filter((x) => x === null)).toHaveLength(reads.length / 2);
    expect(alone.filter((x) => x?.node)).not.toHaveLength(0);
  });

  describe('page and findInList', () => {
    const expected = (f: Omit<NodeListFilter, 'graphId'>, order: 'created' | 'tree') =>
      sorted(h.nodesAt(f.seq).values(), order).filter(
        (r) =>
          (f.parentNo === undefined || r.parentNo === f.parentNo) &&
          (!f.subtree ||
            (r.sortKey > f.subtree.sortKey &&
              r.sortKey < descendantsUpperBound(f.subtree.sortKey) &&
              (f.subtree.maxDepth === null || r.depth <= f.subtree.maxDepth))) &&
          (!f.kind || r.kind === f.kind) &&
          (!f.state || r.state === f.state),
      );

    const filters = (seq: number): Omit<NodeListFilter, 'graphId'>[] => {
      const a = h.nodesAt(last).get(2)!;
      return [
        { seq },
        { seq, parentNo: 1 },
        { seq, subtree: { nodeNo: 1, sortKey: h.nodesAt(last).get(1)!.sortKey, maxDepth: null } },
        { seq, subtree: { nodeNo: 1, sortKey: h.nodesAt(last).get(1)!.sortKey, maxDepth: 1 } },
        { seq, subtree: { nodeNo: a.no, sortKey: a.sortKey, maxDepth: null } },
        { seq, kind: 'agent' },
        { seq, state: 'working' },
        { seq, kind: 'session', state: 'working' },
      ];
    };

    it('lists each filter’s nodes in both orders, as of any event', async () => {
      for (const seq of [1, 4, 8, last]) {
        for (const f of filters(seq)) {
          for (const order of ['created', 'tree'] as const) {
            const { rows: page } = await repo.page({ graphId: h.graphId, ...f, order, limit: 100 });
            expect({ f, order, page }).toEqual({ f, order, page: expected(f, order) });
          }
        }
      }
    });

    it('pages after and before a node in list order, before pages nearest first', async () => {
      for (const order of ['created', 'tree'] as const) {
        const all = expected({ seq: last }, order);
        const cursor = all[2]!;
        const base = { graphId: h.graphId, seq: last, order };
        expect((await repo.page({ ...base, after: cursor, limit: 2 })).rows).toEqual(
          all.slice(3, 5),
        );
        expect((await repo.page({ ...base, before: cursor, limit: 5 })).rows).toEqual(
          all.slice(0, 2).reverse(),
        );
      }
    });

    it('findInList finds a node only where the list holds it', async () => {
      for (const seq of [3, last]) {
        for (const f of filters(seq)) {
          for (const no of [1, 2, 3, 4, 5, 6, 7, 99]) {
            const held = expected(f, 'created').find((r) => r.no === no) ?? null;
            expect(await repo.findInList({ graphId: h.graphId, ...f }, no)).toEqual(held);
          }
        }
      }
    });
  });

  it('childrenOf lists each parent’s children oldest first, within both limits', async () => {
    const parents = [
      { nodeNo: 1, seq: last },
      { nodeNo: 2, seq: 4 },
      { nodeNo: 2, seq: last },
      { nodeNo: 5, seq: last },
    ];
    const children = (p: { nodeNo: number; seq: number }) =>
      sorted(h.nodesAt(p.seq).values(), 'created').filter((r) => r.parentNo === p.nodeNo);
    const lists = async (...args: [number, number, number?]) =>
      (await repo.childrenOf(h.graphId, parents, ...args)).lists;
    expect(await lists(100, 1000)).toEqual(parents.map(children));
    expect(await lists(1, 1000)).toEqual(parents.map((p) => children(p).slice(0, 1)));
    // the total limit stops the scan: the first parent's rows, then nothing
    expect(await lists(100, 2)).toEqual([children(parents[0]!).slice(0, 2), [], [], []]);
    // so does a byte bound, which says so: the first row always
    expect(await repo.childrenOf(h.graphId, parents, 100, 1000, 1)).toEqual({
      lists: [children(parents[0]!).slice(0, 1), [], [], []],
      cutFrom: 0,
    });
  });

  it('descendantsOf lists each subtree in tree order, to a depth when asked', async () => {
    const root = h.nodesAt(last).get(1)!;
    const a = h.nodesAt(last).get(2)!;
    const roots = [
      { sortKey: root.sortKey, maxDepth: null, seq: last },
      { sortKey: root.sortKey, maxDepth: root.depth + 1, seq: last },
      { sortKey: a.sortKey, maxDepth: null, seq: 5 },
    ];
    const below = (r: (typeof roots)[number]) =>
      sorted(h.nodesAt(r.seq).values(), 'tree').filter(
        (n) =>
          n.sortKey > r.sortKey &&
          n.sortKey < descendantsUpperBound(r.sortKey) &&
          (r.maxDepth === null || n.depth <= r.maxDepth),
      );
    expect(await repo.descendantsOf(h.graphId, roots, 1000, 10_000)).toEqual({
      lists: roots.map(below),
      cutFrom: null,
    });
    expect((await repo.descendantsOf(h.graphId, roots, 2, 10_000)).lists).toEqual(
      roots.map((r) => below(r).slice(0, 2)),
    );
  });

  it('countActiveWorking counts working nodes touched within the window, per graph', async () => {
    const items = seqs().flatMap((seq) => {
      const times = [...h.nodesAt(seq).values()].map((r) => r.lastEvent);
      const mid = times.sort((x, y) => x - y)[Math.floor(times.length / 2)]!;
      return [
        { graphId: h.graphId, seq, since: 0, until: Number.MAX_SAFE_INTEGER },
        { graphId: h.graphId, seq, since: mid, until: Number.MAX_SAFE_INTEGER },
        { graphId: h.graphId, seq, since: 0, until: mid },
      ];
    });
    const expected = items.map(
      (x) =>
        [...h.nodesAt(x.seq).values()].filter(
          (r) => r.state === 'working' && r.lastEvent >= x.since && r.lastEvent <= x.until,
        ).length,
    );
    expect(await repo.countActiveWorking(items)).toEqual(expected);
    expect(expected.some((n) => n > 0)).toBe(true);
  });
});
