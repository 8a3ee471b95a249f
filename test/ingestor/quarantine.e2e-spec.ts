import { metricsAuth } from '../support/metrics-token';
import type { WatchEvent } from '@graph-history/domain';
import { seedGraph } from '../support/seed';
import { ingestPipeline } from '../support/ingest-pipeline';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { cli } from '../cli/support/run-cli';
import { endpointFixture, EndpointFixture } from './support/endpoint-fixture';
import { expectAppliedOnce } from './support/expect-applied-once';
import { waitFor } from './support/ingestor-harness';
import { expectListedStall } from './support/expect-stalled';
import { storeUnchecked } from './support/store-unchecked';
import { T0, validRun, watchEvent } from './support/watch-events';

/** A status event on a node no event created: the reducer refuses it at apply time. */
const refused = (key: string): WatchEvent =>
  watchEvent(key, 'status', 'no-such-node', { state: 'working', summary: 'x' }, T0) as never;

/**
 * Quarantine: a graph whose next stored event the reducer refuses stops applying there, with its
 * error recorded once; nothing applied changes; an operator lists it and skips or retries it.
 */
describe('quarantine of a graph whose next event cannot be applied', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  const graphRow = (graphId: number) =>
    t.db.selectFrom('graphs').selectAll().where('graph_id', '=', graphId).executeTakeFirstOrThrow();

  /** A graph with `before` applied events, then the refused one, then `after` more stored. */
  async function stalledGraph(graphKey: string, before: number, after: number) {
    const events = validRun(graphKey, before + after);
    const { graphId } = await seedGraph(t.db, { graphKey, events: events.slice(0, before) });
    const { store } = await ingestPipeline(t.db);
    const badSeq = await storeUnchecked(t.db, graphId, refused(`${graphKey}-bad`));
    await store.store({
      accountId: (await graphRow(graphId)).account_id,
      graphKey,
      events: events.slice(before),
    });
    return { graphId, events, badSeq };
  }

  it('applies the events before the refused one, then stops there with its error recorded once', async () => {
    const { graphId, events, badSeq } = await stalledGraph('q-mid', 30, 20);
    const appliedBefore = await t.db
      .selectFrom('events')
      .selectAll()
      .where('graph_id', '=', graphId)
      .orderBy('seq')
      .execute();
    const { applier } = await ingestPipeline(t.db);
    const first = await applier.applyPending(graphId);
    expect(first.applied).toBe(0);
    expect(first.stalled).toMatchObject({ seq: badSeq });
    expect(first.stalled!.error).toMatch(/q-mid-bad.*no-such-node/);

    const g = await graphRow(graphId);
    expect(g).toMatchObject({ applied_seq: 30, ingested_seq: 51, stalled_seq: 31 });
    expect(g.stalled_error).toBe(first.stalled!.error);
    expect(g.stalled_at).toBeGreaterThan(T0);
    // Nothing already applied changed.
    const appliedAfter = await t.db
      .selectFrom('events')
      .selectAll()
      .where('graph_id', '=', graphId)
      .orderBy('seq')
      .execute();
    expect(appliedAfter).toEqual(appliedBefore);
    // Applying again does nothing and reports nothing: the stall is reported once.
    const again = await (await ingestPipeline(t.db)).applier.applyPending(graphId);
    expect(again).toMatchObject({ applied: 0, stalled: null });
    expect((await graphRow(graphId)).stalled_at).toBe(g.stalled_at);
    expect(events).toHaveLength(50);
  });

  it('applies the events of a run that precede a refused one in the same run', async () => {
    const events = validRun('q-run', 40);
    const { graphId } = await seedGraph(t.db, { graphKey: 'q-run', events: events.slice(0, 10) });
    const { store, applier } = await ingestPipeline(t.db);
    const accountId = (await graphRow(graphId)).account_id;
    await store.store({ accountId, graphKey: 'q-run', events: events.slice(10, 25) });
    await storeUnchecked(t.db, graphId, refused('q-run-bad'));
    const outcome = await applier.applyPending(graphId);
    expect(outcome.applied).toBe(15);
    expect(outcome.stalled).toMatchObject({ seq: 26 });
    expect(await graphRow(graphId)).toMatchObject({ applied_seq: 25, stalled_seq: 26 });
  });

  it('lets an operator list the stall, retry it (stalls again), and skip it (the rest applies)', async () => {
    const { graphId, events } = await stalledGraph('q-cli', 12, 8);
    const { applier } = await ingestPipeline(t.db);
    await applier.applyPending(graphId);
    const env = { DATABASE_URL: t.url };

    await expectListedStall(t.url, {
      graph_id: 'gph_q-cli',
      event_seq: 13,
      event_key: 'q-cli-bad',
      waiting: 9,
    });
    expect((await cli(['stalled', 'list'], env)).stdout).toMatch(/gph_q-cli {2}event 13/);

    const retry = await cli(['stalled', 'retry', 'gph_q-cli'], env);
    expect(retry).toMatchObject({ code: 0, stderr: '' });
    expect((await graphRow(graphId)).stalled_seq).toBeNull();
    expect((await applier.applyPending(graphId)).stalled).toMatchObject({ seq: 13 });

    const jsonBytes = (list: unknown[]) =>
      list.reduce<number>((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)), 0);
    const bad = jsonBytes([refused('q-cli-bad')]);
    expect((await graphRow(graphId)).stored_bytes).toBe(jsonBytes(events) + bad);
    const skip = await cli(['stalled', 'skip', 'gph_q-cli'], env);
    expect(skip).toMatchObject({ code: 0, stderr: '' });
    expect(skip.stdout).toMatch(/event 13 dropped/);
    expect(await applier.applyPending(graphId)).toMatchObject({ applied: 8, stalled: null });
    await expectAppliedOnce(t.db, 'q-cli', events);
    // the dropped event no longer counts against the account's bytes
    expect((await graphRow(graphId)).stored_bytes).toBe(jsonBytes(events));

    const none = await cli(['stalled', 'skip', 'gph_q-cli'], env);
    expect(none).toMatchObject({ code: 1 });
    expect(none.stderr).toMatch(/gph_q-cli is not stalled/);
  });
});

describe('a quarantined graph in a running ingestor', () => {
  let f: EndpointFixture;
  beforeAll(async () => {
    f = await endpointFixture(true);
  });
  afterAll(() => f.close());

  const metric = async (name: string) => {
    const text = await (await f.app.request('GET', '/metrics', { headers: metricsAuth })).body;
    const line = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)$`, 'm').exec(text);
    return line ? Number(line[1]) : 0;
  };

  it('is counted in /metrics, not retried in a loop, and other graphs keep applying', async () => {
    const events = validRun('q-live', 30);
    await f.send('q-live', events.slice(0, 20));
    const g = await f.appliedThrough('q-live', 20);
    await storeUnchecked(f.t.db, g.graph_id, refused('q-live-bad'));
    await f.send('q-live', events.slice(20));
    await waitFor(
      'the stall to be recorded',
      async () => (await f.graphRow('q-live'))!.stalled_seq,
    );
    await waitFor(
      'the stalled gauge',
      async () => (await metric('graph_history_graphs_stalled')) === 1,
    );
    expect(await metric('graph_history_apply_stalls_total')).toBe(1);

    const rescues = await metric('graph_history_apply_rescues_total');
    await new Promise((r) => setTimeout(r, 2_500));
    // Two and a half sweeps later: no failed job, no rescue, no second report.
    expect(await metric('graph_history_job_failures_total')).toBe(0);
    expect(await metric('graph_history_apply_rescues_total')).toBe(rescues);
    expect(await metric('graph_history_apply_stalls_total')).toBe(1);
    expect(await f.graphRow('q-live')).toMatchObject({ applied_seq: 20, ingested_seq: 31 });

    await f.send('q-other', validRun('q-other', 10));
    await f.appliedThrough('q-other', 10);
  });
});
