import { sql } from 'kysely';
import { StoredGraphCounts } from '@graph-history/domain';
import { NodeReadRepository } from '@graph-history/db';
import { EndpointFixture, endpointFixture } from './support/endpoint-fixture';
import { T0, validRun, watchEvent } from './support/watch-events';
import { metricsAuth } from '../support/metrics-token';

/** The apply path in-process: ingest -> BullMQ apply job -> reducer -> events, versions, records. */
describe('apply', () => {
  let f: EndpointFixture;
  let t: EndpointFixture['t'];
  const send = (graphKey: string, events: unknown[]) => f.send(graphKey, events);
  const graph = async (graphKey: string) => (await f.graphRow(graphKey))!;
  const appliedThrough = (graphKey: string, seq: number) => f.appliedThrough(graphKey, seq);

  beforeAll(async () => {
    f = await endpointFixture(true);
    t = f.t;
  });
  afterAll(() => f.close());

  it('applies stored events in seq order, exactly once, with rows for every table', async () => {
    const events = validRun('ap', 300);
    for (let i = 0; i < events.length; i += 100) await send('applied', events.slice(i, i + 100));
    const g = await appliedThrough('applied', 300);
    expect(g).toMatchObject({
      ingested_seq: 300,
      applied_seq: 300,
      first_seq: 1,
      last_event: T0 + 299 * 10,
    });

    const stored = await t.db
      .selectFrom('events')
      .select(['seq', 'key', 'type', 'created', 'counts', 'public_json'])
      .where('graph_id', '=', g.graph_id)
      .orderBy('seq')
      .execute();
    expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(stored.map((e) => e.key)).toEqual(events.map((e) => e.key));
    expect(g.counts).toEqual(stored[299]!.counts);
    expect(JSON.parse(stored[0]!.public_json!).changes[0]).toMatchObject({ created: true });
    const inbox = await t.db
      .selectFrom('inbox')
      .select('seq')
      .where('graph_id', '=', g.graph_id)
      .execute();
    expect(inbox).toHaveLength(0);

    const nodes = await t.db
      .selectFrom('node_versions')
      .select(['node_no', sql<number>`count(*)`.as('versions')])
      .where('graph_id', '=', g.graph_id)
      .groupBy('node_no')
      .execute();
    const counts = g.counts as StoredGraphCounts;
    expect(nodes).toHaveLength(counts.nodes);
    expect(counts.sessions).toBe(1);
    expect(counts.agents).toBe(counts.nodes - 1);
    const snapshots = await t.db
      .selectFrom('task_snapshots')
      .select('seq')
      .where('graph_id', '=', g.graph_id)
      .execute();
    expect(snapshots.length).toBe(events.filter((e) => e.type === 'tasks.updated').length);
    const spawns = await t.db
      .selectFrom('spawns')
      .select('child_no')
      .where('graph_id', '=', g.graph_id)
      .execute();
    expect(spawns).toHaveLength(counts.agents);
  });

  it('raises a created that went back in time to the previous event (clock skew)', async () => {
    await send('skew', [
      watchEvent('sk-0', 'session.started', 'sk', {}, T0 + 5_000),
      watchEvent('sk-1', 'activity', 'sk', {}, T0 + 1_000),
      watchEvent('sk-2', 'activity', 'sk', {}, T0 + 9_000),
    ]);
    const g = await appliedThrough('skew', 3);
    const rows = await t.db
      .selectFrom('events')
      .select(['seq', 'created'])
      .where('graph_id', '=', g.graph_id)
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => r.created)).toEqual([T0 + 5_000, T0 + 5_000, T0 + 9_000]);
  });

  it('closes waits, records messages, and opens then closes a wait inside one run', async () => {
    await send('waits', [
      watchEvent('w-0', 'session.started', 'w'),
      watchEvent('w-1', 'agent.spawned', 'w/a', {
        parent: 'w',
        agent_type: 't',
        purpose: 'p',
        background: true,
      }),
      watchEvent('w-2', 'wait.started', 'w', { on: ['w/a'], reason: 'needs results' }),
      watchEvent('w-3', 'message.sent', 'w/a', { to: 'w', text: 'done' }),
    ]);
    const g1 = await appliedThrough('waits', 4);
    const open = await t.db
      .selectFrom('waits')
      .selectAll()
      .where('graph_id', '=', g1.graph_id)
      .execute();
    expect(open).toEqual([
      expect.objectContaining({
        node_no: 1,
        on_no: 2,
        started_seq: 3,
        ended_seq: null,
        reason: 'needs results',
      }),
    ]);
    expect((g1.counts as StoredGraphCounts).blocked).toBe(1);

    await send('waits', [
      watchEvent('w-4', 'ended', 'w/a', { state: 'completed' }),
      watchEvent('w-5', 'agent.spawned', 'w/b', {
        parent: 'w',
        agent_type: 't',
        purpose: 'p',
        background: true,
      }),
      watchEvent('w-6', 'wait.started', 'w', { on: ['w/b'] }),
      watchEvent('w-7', 'wait.ended', 'w'),
    ]);
    const g2 = await appliedThrough('waits', 8);
    const waits = await t.db
      .selectFrom('waits')
      .selectAll()
      .where('graph_id', '=', g2.graph_id)
      .orderBy('started_seq')
      .execute();
    expect(waits.map((w) => [w.on_no, w.started_seq, w.ended_seq])).toEqual([
      [2, 3, 5],
      [3, 7, 8],
    ]);
    expect((g2.counts as StoredGraphCounts).blocked).toBe(0);
    const messages = await t.db
      .selectFrom('messages')
      .selectAll()
      .where('graph_id', '=', g2.graph_id)
      .execute();
    expect(messages).toEqual([
      expect.objectContaining({ seq: 4, from_no: 2, to_no: 1, text: 'done' }),
    ]);
  });

  it('counts applied events in /metrics', async () => {
    const res = await f.app.request('GET', '/metrics', { headers: metricsAuth });
    const applied = Number(/graph_history_events_applied_total (\d+)/.exec(res.body)![1]);
    expect(applied).toBeGreaterThanOrEqual(300 + 3 + 8);
    expect(res.body).toMatch(/graph_history_apply_delay_seconds_count \d+/);
  });

  it('keeps node records whole in version rows', async () => {
    const g = await graph('applied');
    const node = await new NodeReadRepository(t.db).findAt(g.graph_id, 1, g.applied_seq);
    expect(node).toMatchObject({ no: 1, ref: 'ap-s', kind: 'session', depth: 0, parentNo: null });
    expect(node!.createdSeq).toBe(1);
  });
});
