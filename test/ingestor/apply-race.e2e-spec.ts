import { simulate } from '@graph-history/simulator';
import { AccountRepository } from '@graph-history/db';
import { ingestPipeline } from '../support/ingest-pipeline';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { expectAppliedOnce } from './support/expect-applied-once';

/** Appliers racing on one graph without BullMQ's help: every event is still applied once. */
describe('concurrent appliers', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('commit each batch once: the losers of a race write nothing and carry on', async () => {
    const [graph] = simulate({ graphs: 1, events: 1_800, seed: 'race', graphKeyPrefix: 'race' });
    const { graphKey, events } = graph!;
    const { accountId } = await new AccountRepository(t.db).findOrCreate('race', Date.now());
    const { store } = await ingestPipeline(t.db);
    for (let i = 0; i < events.length; i += 600)
      await store.store({ accountId, graphKey, events: events.slice(i, i + 600) });

    const appliers = await Promise.all(
      [1, 2, 3].map(async () => (await ingestPipeline(t.db, { APPLY_BATCH_SIZE: '50' })).applier),
    );
    const graphId = (
      await t.db
        .selectFrom('graphs')
        .select('graph_id')
        .where('graph_key', '=', graphKey)
        .executeTakeFirstOrThrow()
    ).graph_id;
    const outcomes = await Promise.all(appliers.map((a) => a.applyPending(graphId)));

    expect(outcomes.reduce((n, o) => n + o.applied, 0)).toBe(events.length);
    await expectAppliedOnce(t.db, graphKey, events);
  });
});
