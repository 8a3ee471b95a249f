import type { WatchEvent } from '@graph-history/domain';
import {
  AccountRepository,
  GraphWriteRepository,
  InboxRepository,
  NodeRefRepository,
} from '@graph-history/db';
import { validRun } from '../../ingestor/support/watch-events';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** The ingest side of a graph on the real database: snapshot, conditional append, refs. */
describe('InboxRepository', () => {
  let t: TestDatabase;
  let inbox: InboxRepository;
  let graphs: GraphWriteRepository;
  let accountId: number;

  beforeAll(async () => {
    t = await createTestDatabase();
    inbox = new InboxRepository(t.db);
    graphs = new GraphWriteRepository(t.db);
    ({ accountId } = await new AccountRepository(t.db).findOrCreate('inbox', 1));
  });
  afterAll(() => t.drop());

  async function newGraph(graphKey: string): Promise<number> {
    const { graphId } = await graphs.claimKey(graphKey, accountId);
    await graphs.createWatchGraph({ graphId, graphKey, accountId, created: 5 });
    return graphId;
  }

  const rows = (table: 'inbox' | 'event_keys' | 'node_refs', graphId: number) =>
    t.db.selectFrom(table).selectAll().where('graph_id', '=', graphId).execute();

  it('has no snapshot for an unknown key, and a null ingested_seq before the graph row', async () => {
    expect(await inbox.snapshot('nobody', ['k'], ['r'])).toBeNull();
    const { graphId } = await graphs.claimKey('claimed-only', accountId);
    expect(await inbox.snapshot('claimed-only', [], [])).toEqual({
      graphId,
      accountId,
      ingestedSeq: null,
      keys: new Set(),
      refs: new Map(),
    });
  });

  it('appends a batch with its seqs, keys and refs, and reports exactly the asked ones back', async () => {
    const graphId = await newGraph('append');
    const events = validRun('ap', 3);
    const refs = new Map([
      ['ap-s', { ended: false, sessionRef: null, depth: null }],
      ['ap-s/a0', { ended: true, sessionRef: 'ap-s', depth: 1 }],
    ]);

    expect(
      await inbox.appendIfUnchanged(graphId, { afterSeq: 0, events, refs, received: 77 }),
    ).toBe(true);

    expect((await rows('inbox', graphId)).map((r) => [r.seq, r.body, r.received])).toEqual(
      events.map((e, i) => [i + 1, e, 77]),
    );
    expect((await rows('event_keys', graphId)).map((r) => [r.key, r.seq]).sort()).toEqual(
      events.map((e, i) => [e.key, i + 1]).sort(),
    );
    const snapshot = await inbox.snapshot(
      'append',
      ['ap-0', 'ap-2', 'ap-9', 'nul\u0000'],
      ['ap-s', 'ap-s/a0', 'ghost', '\ud800'],
    );
    expect(snapshot).toEqual({
      graphId,
      accountId,
      ingestedSeq: 3,
      keys: new Set(['ap-0', 'ap-2']),
      refs,
    });
    expect(await new NodeRefRepository(t.db).find(graphId, ['ap-s/a0', 'ghost', '\ud800'])).toEqual(
      new Map([['ap-s/a0', { ended: true, sessionRef: 'ap-s', depth: 1 }]]),
    );
  });

  it('stores nothing when the graph moved on since the batch was validated', async () => {
    const graphId = await newGraph('race');
    const [first, second] = [validRun('r1', 2), validRun('r2', 2)];
    const batch = (events: WatchEvent[], afterSeq: number) => ({
      afterSeq,
      events,
      refs: new Map([[events[0]!.node, { ended: false, sessionRef: null }]]),
      received: 1,
    });
    expect(await inbox.appendIfUnchanged(graphId, batch(first, 0))).toBe(true);

    expect(await inbox.appendIfUnchanged(graphId, batch(second, 0))).toBe(false);
    expect(await inbox.appendIfUnchanged(graphId, batch(second, 5))).toBe(false);

    expect((await rows('inbox', graphId)).map((r) => r.seq)).toEqual([1, 2]);
    expect((await rows('event_keys', graphId)).map((r) => r.key).sort()).toEqual(['r1-0', 'r1-1']);
    expect((await rows('node_refs', graphId)).map((r) => r.ref)).toEqual(['r1-s']);
    expect((await inbox.snapshot('race', [], []))!.ingestedSeq).toBe(2);
  });

  it('updates the ended flag of a ref it stored before', async () => {
    const graphId = await newGraph('ends');
    const [start, end] = [validRun('en', 1), validRun('en2', 1)];
    const ref = (ended: boolean) => new Map([['en-s', { ended, sessionRef: null, depth: 0 }]]);
    await inbox.appendIfUnchanged(graphId, {
      afterSeq: 0,
      events: start,
      refs: ref(false),
      received: 1,
    });
    await inbox.appendIfUnchanged(graphId, {
      afterSeq: 1,
      events: end,
      refs: ref(true),
      received: 2,
    });
    expect((await inbox.snapshot('ends', [], ['en-s']))!.refs).toEqual(ref(true));
  });
});
