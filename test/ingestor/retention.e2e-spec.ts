import { sql } from 'kysely';
import { emptyCounts, eventId, WatchEvent } from '@graph-history/domain';
import { seedGraph } from '../support/seed';
import { EndpointFixture, endpointFixture } from './support/endpoint-fixture';
import { waitFor } from './support/ingestor-harness';
import { ingestPipeline } from '../support/ingest-pipeline';
import { chattyRun, validRun, watchEvent } from './support/watch-events';

/** Retention (decisions.md): 1,000 to 2,000 readable events, the trim job, and seedGraph. */
describe('retention', () => {
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

  it('keeps 1,000 to 2,000 events readable, trims the rest, and still refuses trimmed keys as duplicates', async () => {
    const events = validRun('ret', 2_500);
    const held: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const g = await t.db
          .selectFrom('graphs')
          .select(['applied_seq', 'first_seq'])
          .where('graph_key', '=', 'retained')
          .executeTakeFirst();
        if (g?.first_seq) held.push(g.applied_seq - g.first_seq + 1);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    for (let i = 0; i < events.length; i += 500) await send('retained', events.slice(i, i + 500));
    const g = await appliedThrough('retained', 2_500);
    sampling = false;
    await sampler;
    expect(g.first_seq).toBe(1_501);
    expect(Math.max(...held)).toBeLessThanOrEqual(2_000);
    expect(held.filter((n, i) => n < 1_000 && held.slice(0, i).some((m) => m >= 1_000))).toEqual(
      [],
    );

    const trimmed = await waitFor('the trim job', async () => {
      const row = await graph('retained');
      return row.trimmed_seq === 1_501 ? row : undefined;
    });
    const eventSeqs = await t.db
      .selectFrom('events')
      .select(sql<number>`min(seq)`.as('min'))
      .select(sql<number>`count(*)`.as('n'))
      .where('graph_id', '=', trimmed.graph_id)
      .executeTakeFirstOrThrow();
    expect(eventSeqs).toEqual({ min: 1_501, n: 1_000 });
    const unreachable = await sql<{ n: number }>`
      select count(*)::int as n from node_versions v
      where v.graph_id = ${trimmed.graph_id} and exists (
        select 1 from node_versions w where w.graph_id = v.graph_id and w.node_no = v.node_no
          and w.valid_from > v.valid_from and w.valid_from <= ${trimmed.first_seq})`.execute(t.db);
    expect(unreachable.rows[0]!.n).toBe(0);
    const staleSnapshots = await sql<{ n: number }>`
      select count(*)::int as n from task_snapshots s
      where s.graph_id = ${trimmed.graph_id} and exists (
        select 1 from task_snapshots u where u.graph_id = s.graph_id and u.node_no = s.node_no
          and u.seq > s.seq and u.seq <= ${trimmed.first_seq})`.execute(t.db);
    expect(staleSnapshots.rows[0]!.n).toBe(0);
    // every node is still readable as of the oldest retained event
    const asOfFirst = await sql<{ n: number }>`
      select count(distinct node_no)::int as n from node_versions
      where graph_id = ${trimmed.graph_id} and valid_from <= ${trimmed.first_seq}`.execute(t.db);
    const createdBefore = await t.db
      .selectFrom('spawns')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('graph_id', '=', trimmed.graph_id)
      .where('seq', '<=', trimmed.first_seq!)
      .executeTakeFirstOrThrow();
    expect(asOfFirst.rows[0]!.n).toBe(createdBefore.n + 1);

    expect(await send('retained', events.slice(0, 500))).toEqual({
      accepted: 0,
      duplicates: 500,
      last_key: 'ret-499',
    });
  });

  it('seedGraph stores and applies through the same path, without Redis', async () => {
    const events = validRun('seed', 2_100);
    const { graphId, accountId } = await seedGraph(t.db, {
      accountName: 'seeded',
      graphKey: 'seeded',
      events,
    });
    const g = await graph('seeded');
    expect(g).toMatchObject({
      graph_id: graphId,
      account_id: accountId,
      applied_seq: 2_100,
      first_seq: 1_101,
      trimmed_seq: 1_101,
    });
    const first = await t.db
      .selectFrom('events')
      .select('seq')
      .where('graph_id', '=', graphId)
      .orderBy('seq')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(eventId(graphId, first.seq)).toBe(eventId(graphId, 1_101));
    await expect(
      seedGraph(t.db, {
        accountName: 'seeded',
        graphKey: 'seeded',
        events: [watchEvent('bad', 'status', 'nobody', { state: 'idle' }) as unknown as WatchEvent],
      }),
    ).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'events[0].node',
    });
    const empty = await seedGraph(t.db, { graphKey: 'seeded-empty', events: [] });
    expect(await graph('seeded-empty')).toMatchObject({
      graph_id: empty.graphId,
      applied_seq: 0,
      counts: null,
    });
    expect(emptyCounts().nodes).toBe(0);
  });

  it('trims messages and ended waits with the events, so a long chatty share stays bounded', async () => {
    const events = chattyRun('chatty', 4_500);
    for (let i = 0; i < events.length; i += 500) await send('chatty', events.slice(i, i + 500));
    const applied = await appliedThrough('chatty', 4_500);
    const g = await waitFor('the trim job', async () => {
      const row = await graph('chatty');
      return row.trimmed_seq === row.first_seq ? row : undefined;
    });
    expect(g.first_seq).toBe(applied.first_seq);
    const count = async (table: 'messages' | 'waits' | 'events') =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('graph_id', '=', g.graph_id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const held = 4_500 - g.first_seq! + 1;
    expect(held).toBeGreaterThanOrEqual(1_000);
    expect(held).toBeLessThanOrEqual(2_000);
    expect(await count('events')).toBe(held);
    // A third of the retained events are messages, a third end a wait: nothing older is kept.
    expect(await count('messages')).toBeLessThanOrEqual(Math.ceil(held / 3));
    expect(await count('waits')).toBeLessThanOrEqual(Math.ceil(held / 3) + 1);
    const oldest = await t.db
      .selectFrom('messages')
      .select((eb) => eb.fn.min('seq').as('seq'))
      .where('graph_id', '=', g.graph_id)
      .executeTakeFirstOrThrow();
    expect(Number(oldest.seq)).toBeGreaterThanOrEqual(g.first_seq!);
  }, 60_000);

  it('keeps the idempotency keys of a documented number of events only', async () => {
    const db = t.db;
    const { store, applier, trimmer } = await ingestPipeline(db, { IDEMPOTENCY_KEYS_KEPT: '2000' });
    const { accountId } = f.owner;
    const events = validRun('keys', 6_000);
    let graphId = 0;
    for (let i = 0; i < events.length; i += 1_000) {
      ({ graphId } = await store.store({
        accountId,
        graphKey: 'keys',
        events: events.slice(i, i + 1_000),
      }));
      await applier.applyPending(graphId);
      await trimmer.trim(graphId);
    }
    const g = await graph('keys');
    const keys = await db
      .selectFrom('event_keys')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('seq').as('oldest')])
      .where('graph_id', '=', graphId)
      .executeTakeFirstOrThrow();
    expect(Number(keys.oldest)).toBe(g.trimmed_seq - 2_000);
    expect(Number(keys.n)).toBe(6_000 - (g.trimmed_seq - 2_000) + 1);
    expect(Number(keys.n)).toBeLessThanOrEqual(2_000 + 2_000);
  }, 60_000);
});
