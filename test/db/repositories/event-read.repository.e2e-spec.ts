import { storedEventJson, storedNodeJson } from '@graph-history/domain';
import { EventPageQuery, EventReadRepository, EventWithNode } from '@graph-history/db';
import { EventScript } from '../../api/support/watch-events';
import { createTestDatabase, TestDatabase } from '../../support/test-database';
import { seedHistory, SeededHistory } from '../support/seeded-history';

/** EventReadRepository on the real database, against what the reducer stored for each event. */
describe('EventReadRepository', () => {
  let t: TestDatabase;
  let repo: EventReadRepository;
  let h: SeededHistory;
  let other: SeededHistory;

  beforeAll(async () => {
    t = await createTestDatabase();
    repo = new EventReadRepository(t.db);
    const s = new EventScript(1_700_000_000_000, 1_000);
    s.session('S').agent('S/a', 'S').status('S/a', 'idle').message('S', 'S/a', 'hi').ended('S/a');
    h = await seedHistory(t.db, 'events', s.events);
    other = await seedHistory(t.db, 'other', new EventScript().session('S').events);
  });
  afterAll(() => t.drop());

  const created = (seq: number) => h.applied[seq - 1]!.event.created;

  it('seqAtOrBefore finds the newest event at or before a time, within the range', async () => {
    expect(await repo.seqAtOrBefore(h.graphId, created(3), 1, 5)).toBe(3);
    expect(await repo.seqAtOrBefore(h.graphId, created(3) + 999, 1, 5)).toBe(3);
    expect(await repo.seqAtOrBefore(h.graphId, created(5) + 1e9, 1, 4)).toBe(4);
    expect(await repo.seqAtOrBefore(h.graphId, created(1) - 1, 1, 5)).toBeNull();
    expect(await repo.seqAtOrBefore(h.graphId, created(3), 4, 5)).toBeNull();
  });

  it('createdAt reads an event’s time; null past the newest', async () => {
    for (const seq of [1, 2, 5]) expect(await repo.createdAt(h.graphId, seq)).toBe(created(seq));
    expect(await repo.createdAt(h.graphId, 6)).toBeNull();
  });

  it('facts reads events of any graphs in input order, null where none is stored', async () => {
    const items = [
      { graphId: h.graphId, seq: 4 },
      { graphId: other.graphId, seq: 1 },
      { graphId: h.graphId, seq: 9 },
      { graphId: h.graphId, seq: 1 },
    ];
    const fact = (g: SeededHistory, seq: number) => ({
      seq,
      created: g.applied[seq - 1]!.event.created,
      counts: g.applied[seq - 1]!.event.counts,
    });
    expect(await repo.facts(items)).toEqual([fact(h, 4), fact(other, 1), null, fact(h, 1)]);
    expect(await repo.facts([])).toEqual([]);
  });

  it('page walks the range in either direction, up to the limit', async () => {
    const row = (seq: number) => {
      const { key: _key, counts: _counts, ...rest } = h.applied[seq - 1]!.event;
      return rest;
    };
    const page = (fromSeq: number, toSeq: number, direction: 'asc' | 'desc', limit: number) =>
      repo.page({ graphId: h.graphId, fromSeq, toSeq, direction, limit });
    expect(await page(1, 5, 'asc', 10)).toEqual([1, 2, 3, 4, 5].map(row));
    expect(await page(2, 4, 'desc', 10)).toEqual([4, 3, 2].map(row));
    expect(await page(2, 5, 'asc', 2)).toEqual([2, 3].map(row));
    expect(await page(1, 5, 'desc', 1)).toEqual([5].map(row));
    expect(await page(4, 3, 'asc', 10)).toEqual([]);
  });

  const withNodes = (g: SeededHistory) => {
    const last = g.applied.length;
    const expected = (seq: number) => {
      const { key: _key, counts: _counts, ...rest } = g.applied[seq - 1]!.event;
      return {
        ...rest,
        node: g.nodesAt(seq).get(rest.nodeNo) ?? null,
        nextCreated: seq < last ? g.applied[seq]!.event.created : null,
      };
    };
    const page = (fromSeq: number, toSeq: number, direction: 'asc' | 'desc', limit: number) =>
      repo
        .pageWithNodes({ graphId: g.graphId, fromSeq, toSeq, direction, limit })
        .then((p) => p.rows);
    return { last, expected, page };
  };

  it('pageWithNodes gives each event the node as the reducer held it just after the event', async () => {
    const { last, expected, page } = withNodes(h);
    const all = Array.from({ length: last }, (_, i) => i + 1);
    expect(await page(1, last, 'asc', 100)).toEqual(all.map(expected));
    expect(await page(1, last, 'desc', 100)).toEqual([...all].reverse().map(expected));
    // the next event's time past the page's end, and a page that ends at the newest event
    expect(await page(2, 3, 'asc', 10)).toEqual([2, 3].map(expected));
    expect(await page(1, last, 'desc', 2)).toEqual([last, last - 1].map(expected));
    // the far end of an ascending scan stopped by the limit does not know its next event
    expect(await page(1, last, 'asc', 2)).toEqual([
      expected(1),
      { ...expected(2), nextCreated: null },
    ]);
    expect(await page(4, 3, 'asc', 10)).toEqual([]);
  });

  it('pageWithNodes finds the node of an event that changed nothing in its earlier version', async () => {
    // the same time and the same status twice: the fourth event writes no node version
    const s = new EventScript(1_700_000_000_000, 0);
    s.session('S').agent('S/a', 'S').status('S/a', 'idle').status('S/a', 'idle');
    const quiet = await seedHistory(t.db, 'quiet', s.events);
    expect(quiet.applied[3]!.versions).toEqual([]);
    const { expected, page } = withNodes(quiet);
    expect(await page(1, 4, 'desc', 10)).toEqual([4, 3, 2, 1].map(expected));
  });

  describe('pages as stored JSON', () => {
    const queries = (g: SeededHistory): EventPageQuery[] => {
      const last = g.applied.length;
      return (['asc', 'desc'] as const).flatMap((direction) => [
        { graphId: g.graphId, fromSeq: 1, toSeq: last, direction, limit: 100 },
        { graphId: g.graphId, fromSeq: 2, toSeq: 3, direction, limit: 10 },
        { graphId: g.graphId, fromSeq: 1, toSeq: last, direction, limit: 2 },
        { graphId: g.graphId, fromSeq: 4, toSeq: 3, direction, limit: 10 },
      ]);
    };
    const asStored = (graphId: number, { node, nextCreated, ...e }: EventWithNode) => ({
      seq: e.seq,
      json: storedEventJson(graphId, e),
      node: node && {
        state: node.state,
        lastEvent: node.lastEvent,
        json: storedNodeJson(graphId, node),
      },
      nextCreated,
    });

    it('gives each event and its node as the apply stored them', async () => {
      for (const q of queries(h)) {
        const { rows } = await repo.pageWithNodes(q);
        expect(await repo.pageJsonWithNodes(q)).toEqual({
          rows: rows.map((r) => asStored(h.graphId, r)),
          cut: false,
        });
        expect(await repo.pageJson(q)).toEqual({
          rows: rows.map((r) => ({ seq: r.seq, json: asStored(h.graphId, r).json })),
          cut: false,
        });
      }
    });
  });
});
