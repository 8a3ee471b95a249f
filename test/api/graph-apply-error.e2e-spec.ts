import type { WatchEvent } from '@graph-history/domain';
import { ingestPipeline } from '../support/ingest-pipeline';
import { storeUnchecked } from '../ingestor/support/store-unchecked';
import { T0, validRun, watchEvent } from '../ingestor/support/watch-events';
import { ApiHarness } from './support/api-harness';

/** A graph quarantined at an event that cannot be applied tells its owner on graph reads. */
describe('read API: a graph that stopped applying', () => {
  let h: ApiHarness;

  beforeAll(async () => {
    h = await ApiHarness.start();
    await h.seed('healthy', validRun('healthy', 5));
    const { graphId, accountId } = await h.seed('stuck', validRun('stuck', 10));
    await storeUnchecked(
      h.t.db,
      graphId,
      watchEvent(
        'stuck-bad',
        'status',
        'no-such-node',
        { state: 'idle' },
        T0,
      ) as unknown as WatchEvent,
    );
    const { store, applier } = await ingestPipeline(h.t.db);
    await store.store({ accountId, graphKey: 'stuck', events: validRun('stuck', 15).slice(10) });
    await applier.applyPending(graphId);
  });
  afterAll(() => h.stop());

  it('shows apply_error on the graph, with what was applied before it unchanged', async () => {
    const r = await h.get('/api/v1/graphs/gph_stuck');
    expect(r.status).toBe(200);
    expect(r.json.retention.event_count).toBe(10);
    expect(r.json.apply_error).toEqual({
      code: 'event_rejected',
      message: expect.stringMatching(/^Newer events are stored but not shown .*stuck-bad/),
      since: expect.any(Number),
    });
    const list = await h.get('/api/v1/graphs');
    const byId = new Map(list.json.data.map((g: { id: string }) => [g.id, g]));
    expect(byId.get('gph_stuck')).toHaveProperty('apply_error.code', 'event_rejected');
    expect(byId.get('gph_healthy')).not.toHaveProperty('apply_error');
    expect((await h.get('/api/v1/graphs/gph_healthy')).json).not.toHaveProperty('apply_error');
  });
});
