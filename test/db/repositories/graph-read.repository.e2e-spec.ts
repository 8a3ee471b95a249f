import { sql } from 'kysely';
import { createDb, GraphReadRepository, type GraphListFilter } from '@graph-history/db';
import type { Usage } from '@graph-history/domain';
import { EventScript } from '../../api/support/watch-events';
import { createTestDatabase, TestDatabase } from '../../support/test-database';
import { seedHistory, SeededHistory } from '../support/seeded-history';

/** GraphReadRepository on the real database: graph rows, facts as of an event, the graph list. */
describe('GraphReadRepository', () => {
  let t: TestDatabase;
  let repo: GraphReadRepository;
  const graphs: Record<string, SeededHistory> = {};

  beforeAll(async () => {
    t = await createTestDatabase();
    repo = new GraphReadRepository(t.db);
    // g1 is the most recently active, g3 the least; `other` belongs to another account
    const times: Record<string, number> = {
      g3: 1_000,
      g2: 2_000_000,
      g1: 3_000_000,
      other: 4_000_000,
    };
    for (const [key, time] of Object.entries(times)) {
      const s = new EventScript(1_700_000_000_000 + time);
      s.session('S').agent('S/a', 'S').status('S/a', 'idle').agent('S/b', 'S');
      graphs[key] = await seedHistory(t.db, key, s.events, key === 'other' ? 'other' : 'main');
    }
  });
  afterAll(() => t.drop());

  it('findById reads the graph row; null for an unknown id', async () => {
    const g = graphs.g1!;
    expect(await repo.findById(g.graphId)).toEqual({
      graphId: g.graphId,
      graphKey: 'g1',
      accountId: g.accountId,
      source: 'watch',
      created: expect.any(Number),
      appliedSeq: 4,
      firstSeq: 1,
      lastEvent: g.applied[3]!.event.created,
      counts: g.applied[3]!.event.counts,
      applyError: null,
    });
    expect(await repo.findById(-1)).toBeNull();
  });

  it('idByKey finds the id a key names; null for an unknown key', async () => {
    expect(await repo.idByKey('g1')).toBe(graphs.g1!.graphId);
    expect(await repo.idByKey('nope')).toBeNull();
  });

  it('findWithFacts describes the graph as of each event, or the newest', async () => {
    const g = graphs.g2!;
    for (const seq of [1, 2, 3, 4, null, 9]) {
      const at = seq === null || seq > 4 ? 4 : seq;
      const facts = await repo.findWithFacts(g.graphId, seq, 0, 1e12);
      const working = [...g.nodesAt(at).values()].filter((r) => r.state === 'working').length;
      expect(facts).toEqual({
        graph: await repo.findById(g.graphId),
        seq: at,
        firstEventCreated: g.applied[0]!.event.created,
        momentCreated: g.applied[at - 1]!.event.created,
        momentCounts: g.applied[at - 1]!.event.counts,
        nextCreated: at === 4 ? null : g.applied[at]!.event.created,
        activeWorking: working,
      });
    }
    expect(await repo.findWithFacts(g.graphId + 1000, null, 0, 0)).toBeNull();
  });

  it('findWithFacts answers reads made together (one statement) as it answers each alone', async () => {
    const reads: [number, number | null, number, number][] = [];
    for (const g of [...Object.values(graphs).map((x) => x.graphId), 99_999])
      for (const seq of [1, 3, null, 50])
        for (const [since, stale] of [
          [0, 1e12],
          [Number.MAX_SAFE_INTEGER, 0],
          [0, 300_000],
        ] as const)
          reads.push([g, seq, since, stale]);
    const alone = [];
    for (const r of reads) alone.push(await repo.findWithFacts(...r));
    expect(await Promise.all(reads.map((r) => repo.findWithFacts(...r)))).toEqual(alone);
    // per graph (READ_BATCH_SCOPE=graph): the same answers
    const perGraph = createDb(t.url, { max: 2, batchScope: 'graph' });
    try {
      const byGraph = new GraphReadRepository(perGraph);
      expect(await Promise.all(reads.map((r) => byGraph.findWithFacts(...r)))).toEqual(alone);
    } finally {
      await perGraph.destroy();
    }
    expect(alone.filter((x) => x === null)).toHaveLength(12);
  });

  it('findWithFacts counts active working nodes at the next event for a past moment, else by activeSince', async () => {
    const g = graphs.g2!;
    const created = (seq: number) => g.applied[seq - 1]!.event.created;
    const working = (seq: number) =>
      [...g.nodesAt(seq).values()].filter((r) => r.state === 'working');
    const counted: { within: number; before: number }[] = [];
    for (const seq of [1, 2, 3]) {
      // past moment: judged at the next event's created, whatever activeSince says; a window
      // reaching back to the moment's own event keeps the nodes it touched, one ms less drops them
      const next = created(seq + 1);
      const reach = next - created(seq);
      const within = (await repo.findWithFacts(g.graphId, seq, Number.MAX_SAFE_INTEGER, reach))
        ?.activeWorking;
      const before = (await repo.findWithFacts(g.graphId, seq, 0, reach - 1))?.activeWorking;
      expect(within).toBe(working(seq).filter((r) => r.lastEvent >= created(seq)).length);
      expect(before).toBe(working(seq).filter((r) => r.lastEvent > created(seq)).length);
      counted.push({ within: within!, before: before! });
    }
    // the cases above tell the rules apart
    expect(counted.some(({ within, before }) => within > before)).toBe(true);
    // newest moment: judged by activeSince, the staleness window being ignored
    const all = working(4).length;
    expect(all).toBeGreaterThan(0);
    expect((await repo.findWithFacts(g.graphId, 4, 0, 0))?.activeWorking).toBe(all);
    expect((await repo.findWithFacts(g.graphId, null, 0, 0))?.activeWorking).toBe(all);
    expect(
      (await repo.findWithFacts(g.graphId, null, Number.MAX_SAFE_INTEGER, 0))?.activeWorking,
    ).toBe(0);
  });

  describe('the active working count stored by the apply', () => {
    /** The apply's threshold: the default STALE_AFTER_MS the seeding pipeline runs with. */
    const STALE_AFTER_MS = 300_000;
    let h: SeededHistory;
    const created = (seq: number) => h.applied[seq - 1]!.event.created;
    /** The definition, from the reducer alone: working at `seq`, not stale at the next event. */
    const expected = (seq: number) =>
      [...h.nodesAt(seq).values()].filter(
        (r) => r.state === 'working' && r.lastEvent >= created(seq + 1) - STALE_AFTER_MS,
      ).length;
    const count = async (seq: number, staleAfterMs = STALE_AFTER_MS) =>
      (await repo.findWithFacts(h.graphId, seq, 0, staleAfterMs))!.activeWorking;
    const setStored = (seq: number, activeBefore: number | null, staleAfterMs: number | null) =>
      sql`update events set active_before = ${activeBefore}, stale_after_ms = ${staleAfterMs}
        where graph_id = ${h.graphId} and seq = ${seq}`.execute(t.db);

    beforeAll(async () => {
      // events 100 s apart: a node falls stale three events after it was last touched
      const s = new EventScript(1_700_000_000_000, 100_000);
      s.session('W').agent('W/a', 'W').agent('W/b', 'W').agent('W/c', 'W');
      s.activity('W/a').status('W/b', 'idle').agent('W/d', 'W').activity('W/c');
      s.time += 1_000_000;
      s.activity('W/d').activity('W/a').status('W/a', 'completed').activity('W/c');
      h = await seedHistory(t.db, 'stored-active', s.events);
    });

    it('is written with each event, and equals the scan for every past moment', async () => {
      const last = h.applied.length;
      const past = Array.from({ length: last - 1 }, (_, i) => i + 1);
      const stored = await Promise.all(past.map((seq) => count(seq)));
      expect(stored).toEqual(past.map(expected));
      // the history tells "not stale" apart from "working"
      const working = (seq: number) =>
        [...h.nodesAt(seq).values()].filter((r) => r.state === 'working').length;
      expect(past.some((seq) => stored[seq - 1]! > 0 && stored[seq - 1]! < working(seq))).toBe(
        true,
      );
      const rows = await sql<{ seq: number; active_before: number; stale_after_ms: number }>`
        select seq, active_before, stale_after_ms from events
        where graph_id = ${h.graphId} and seq > 1 order by seq`.execute(t.db);
      expect(rows.rows).toEqual(
        past.map((seq, i) => ({
          seq: seq + 1,
          active_before: stored[i],
          stale_after_ms: STALE_AFTER_MS,
        })),
      );
      // the same moments without the stored counts: the scan gives the same answers
      for (const seq of past) await setStored(seq + 1, null, null);
      expect(await Promise.all(past.map((seq) => count(seq)))).toEqual(stored);
      for (const [i, seq] of past.entries()) await setStored(seq + 1, stored[i]!, STALE_AFTER_MS);
    });

    it('is read only when stored with the threshold asked for; the scan answers otherwise', async () => {
      const seq = 6;
      const scanned = await count(seq);
      await setStored(seq + 1, 999, STALE_AFTER_MS);
      try {
        expect(await count(seq)).toBe(999);
        // another threshold: the scan, with that threshold
        expect(await count(seq, STALE_AFTER_MS + 1)).toBe(scanned);
        expect(await count(seq, 1e12)).toBe(
          [...h.nodesAt(seq).values()].filter((r) => r.state === 'working').length,
        );
        // a row without one (written before migration 0010): the scan
        await setStored(seq + 1, null, null);
        expect(await count(seq)).toBe(scanned);
        // the newest moment is judged at activeSince, never from a stored count
        const last = h.applied.length;
        await setStored(last, 999, STALE_AFTER_MS);
        expect((await repo.findWithFacts(h.graphId, last, 0, STALE_AFTER_MS))!.activeWorking).toBe(
          [...h.nodesAt(last).values()].filter((r) => r.state === 'working').length,
        );
      } finally {
        await setStored(seq + 1, scanned, STALE_AFTER_MS);
      }
    });
  });

  describe('list', () => {
    const filter = (over: Partial<GraphListFilter> = {}): GraphListFilter => ({
      accountId: graphs.g1!.accountId,
      graphKeys: null,
      lastEvent: {},
      ...over,
    });
    type Query = Parameters<GraphReadRepository['list']>[0];
    const list = (q: Omit<Query, 'now' | 'activeSince'>) =>
      repo.list({ now: 1_800_000_000_000, activeSince: 0, ...q });
    const keys = async (q: Omit<Query, 'now' | 'activeSince'>) => {
      const page = await list(q);
      return page && page.map((g) => g.graph.graphKey);
    };
    const idOf = (key: string) => graphs[key]!.graphId;

    it('lists the account’s graphs most recently active first, within the filters', async () => {
      expect(await keys({ ...filter(), limit: 10 })).toEqual(['g1', 'g2', 'g3']);
      expect(await keys({ ...filter({ graphKeys: ['g3', 'g1'] }), limit: 10 })).toEqual([
        'g1',
        'g3',
      ]);
      expect(await keys({ ...filter({ graphKeys: [] }), limit: 10 })).toEqual([]);
      const g2Last = graphs.g2!.applied[3]!.event.created;
      expect(await keys({ ...filter({ lastEvent: { lte: g2Last } }), limit: 10 })).toEqual([
        'g2',
        'g3',
      ]);
      expect(await keys({ ...filter({ lastEvent: { lt: g2Last } }), limit: 10 })).toEqual(['g3']);
      expect(await keys({ ...filter({ lastEvent: { gte: g2Last } }), limit: 10 })).toEqual([
        'g1',
        'g2',
      ]);
      expect(await keys({ ...filter({ lastEvent: { gt: g2Last } }), limit: 1 })).toEqual(['g1']);
    });

    it('gives each graph its row, its first event’s time and its active working nodes', async () => {
      const page = await list({ ...filter({ graphKeys: ['g2'] }), limit: 10 });
      const g = graphs.g2!;
      const working = [...g.nodesAt(4).values()].filter((r) => r.state === 'working').length;
      expect(working).toBeGreaterThan(0);
      // the list's counts leave the usage's by_model out (a Graph shows the totals only)
      const row = (await repo.findById(g.graphId))!;
      const { by_model: _, ...totals } = row.counts!.usage as Usage;
      expect(page).toEqual([
        {
          graph: { ...row, counts: { ...row.counts!, usage: totals } },
          firstEventCreated: g.applied[0]!.event.created,
          activeWorking: working,
        },
      ]);
      // none is active when counted from after the newest event
      const later = await repo.list({
        ...filter({ graphKeys: ['g2'] }),
        limit: 10,
        now: 1_800_000_000_000,
        activeSince: Number.MAX_SAFE_INTEGER,
      });
      expect(later?.[0]?.activeWorking).toBe(0);
    });

    it('pages after and before a graph, before pages nearest first', async () => {
      expect(await keys({ ...filter(), after: idOf('g2'), limit: 10 })).toEqual(['g3']);
      expect(await keys({ ...filter(), before: idOf('g2'), limit: 10 })).toEqual(['g1']);
      expect(await keys({ ...filter(), after: idOf('g1'), limit: 1 })).toEqual(['g2']);
      expect(await keys({ ...filter(), before: idOf('g3'), limit: 1 })).toEqual(['g2']);
      expect(await keys({ ...filter(), after: idOf('g3'), limit: 10 })).toEqual([]);
      expect(await keys({ ...filter(), before: idOf('g1'), limit: 10 })).toEqual([]);
    });

    it('is null when the cursor graph is not one of the list', async () => {
      expect(await keys({ ...filter(), after: idOf('other'), limit: 10 })).toBeNull();
      expect(await keys({ ...filter(), before: idOf('other'), limit: 10 })).toBeNull();
      expect(
        await keys({ ...filter({ graphKeys: ['g1'] }), after: idOf('g2'), limit: 10 }),
      ).toBeNull();
      const g2Last = graphs.g2!.applied[3]!.event.created;
      expect(
        await keys({ ...filter({ lastEvent: { gt: g2Last } }), after: idOf('g2'), limit: 10 }),
      ).toBeNull();
      expect(await keys({ ...filter(), after: idOf('other') + 1000, limit: 10 })).toBeNull();
    });
  });
});
