import { AccountRepository, GraphWriteRepository } from '@graph-history/db';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** Graph creation on first write and the graph row lock, on the real database. */
describe('GraphWriteRepository', () => {
  let t: TestDatabase;
  let graphs: GraphWriteRepository;
  let owner: number;
  let other: number;

  beforeAll(async () => {
    t = await createTestDatabase();
    graphs = new GraphWriteRepository(t.db);
    const accounts = new AccountRepository(t.db);
    owner = (await accounts.findOrCreate('owner', 1)).accountId;
    other = (await accounts.findOrCreate('other', 1)).accountId;
  });
  afterAll(() => t.drop());

  it('registers a key once: later claims, by anyone, get the first owner', async () => {
    const first = await graphs.claimKey('shared', owner);
    expect(first.accountId).toBe(owner);
    expect(await graphs.claimKey('shared', other)).toEqual(first);
    expect(await graphs.claimKey('shared', owner)).toEqual(first);
  });

  it('creates the watch graph row once', async () => {
    const { graphId } = await graphs.claimKey('created', owner);
    const graph = { graphId, graphKey: 'created', accountId: owner, created: 42 };
    await graphs.createWatchGraph(graph);
    await graphs.createWatchGraph({ ...graph, created: 43 });
    const row = await t.db
      .selectFrom('graphs')
      .selectAll()
      .where('graph_id', '=', graphId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      graph_key: 'created',
      account_id: owner,
      source: 'watch',
      created: 42,
      ingested_seq: 0,
      applied_seq: 0,
    });
  });

  it("writes in the caller's transaction: a rollback takes the key and the graph with it", async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        const inTrx = graphs.in(trx);
        const { graphId } = await inTrx.claimKey('rolled-back', owner);
        await inTrx.createWatchGraph({
          graphId,
          graphKey: 'rolled-back',
          accountId: owner,
          created: 1,
        });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(
      await t.db
        .selectFrom('graph_directory')
        .select('graph_id')
        .where('graph_key', '=', 'rolled-back')
        .execute(),
    ).toEqual([]);
  });

  it('holds the graph row lock until the transaction ends', async () => {
    const { graphId } = await graphs.claimKey('locked', owner);
    await graphs.createWatchGraph({ graphId, graphKey: 'locked', accountId: owner, created: 1 });
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = t.db.transaction().execute(async (trx) => {
      await graphs.in(trx).lockByKey('locked');
      locked();
      await held;
      order.push('holder done');
    });
    await isLocked;
    const waiter = t.db.transaction().execute(async (trx) => {
      await graphs.in(trx).lockByKey('locked');
      order.push('waiter locked');
    });
    await new Promise((r) => setTimeout(r, 100));
    release();
    await Promise.all([holder, waiter]);
    expect(order).toEqual(['holder done', 'waiter locked']);
  });
});
