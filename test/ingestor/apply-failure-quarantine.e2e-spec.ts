import { sql } from 'kysely';
import { ApplyRepository } from '@graph-history/db';
import { LIMITS, type AppliedEvent, type WatchEvent } from '@graph-history/domain';
import { cli } from '../cli/support/run-cli';
import { ingestPipeline } from '../support/ingest-pipeline';
import { seedGraph } from '../support/seed';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { expectListedStall } from './support/expect-stalled';
import { storeUnchecked } from './support/store-unchecked';
import { validRun, watchEvent } from './support/watch-events';

/**
 * Any failure while applying that retrying cannot mend quarantines the graph at the event at
 * fault, after the events before it are applied; a transient one (a lost connection) is retried
 * and quarantines nothing.
 */
describe('quarantine of a graph whose apply fails, whatever threw', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());
  afterEach(() => jest.restoreAllMocks());

  const graphRow = (graphId: number) =>
    t.db.selectFrom('graphs').selectAll().where('graph_id', '=', graphId).executeTakeFirstOrThrow();
  const eventCount = async (graphId: number) =>
    (await t.db.selectFrom('events').select('seq').where('graph_id', '=', graphId).execute())
      .length;

  /** A graph with `applied` events applied and `stored` more stored (not applied). */
  async function graphWith(graphKey: string, applied: number, stored: WatchEvent[]) {
    const events = validRun(graphKey, applied);
    const { graphId } = await seedGraph(t.db, { graphKey, events });
    for (const event of stored) await storeUnchecked(t.db, graphId, event);
    return graphId;
  }

  it('quarantines at a stored event that cannot be encoded (created beyond bigint), applying the events of its batch before it', async () => {
    const run = validRun('pg-data', 40);
    // `created` beyond bigint: an event an older validator let through; the commit fails on it
    const bad = watchEvent('pg-data-bad', 'status', 'pg-data-s', { state: 'idle' }, 1e19);
    const stored = [...run.slice(10, 25), bad as unknown as WatchEvent, ...run.slice(25)];
    const graphId = await graphWith('pg-data', 10, []);
    for (const event of stored) await storeUnchecked(t.db, graphId, event);

    const { applier } = await ingestPipeline(t.db, { APPLY_BATCH_SIZE: '100' });
    const outcome = await applier.applyPending(graphId);
    expect(outcome.applied).toBe(15);
    expect(outcome.stalled).toMatchObject({ seq: 26 });
    expect(outcome.stalled!.error).toMatch(
      /pg-data-bad \(seq 26\) could not be applied: TypeError: not an integer: 10000000000000000000/,
    );
    expect(await graphRow(graphId)).toMatchObject({
      applied_seq: 25,
      ingested_seq: 41,
      stalled_seq: 26,
    });
    expect(await eventCount(graphId)).toBe(25);

    // Stopped for good: trying again neither applies nor reports anything.
    expect(await (await ingestPipeline(t.db)).applier.applyPending(graphId)).toMatchObject({
      applied: 0,
      stalled: null,
    });
    await expectListedStall(t.url, {
      graph_id: 'gph_pg-data',
      event_seq: 26,
      event_key: 'pg-data-bad',
      waiting: 16,
    });
    // Skipping the event lets the rest apply.
    expect(await cli(['stalled', 'skip', 'gph_pg-data'], { DATABASE_URL: t.url })).toMatchObject({
      code: 0,
    });
    expect(await applier.applyPending(graphId)).toMatchObject({ applied: 15, stalled: null });
  });

  it.each([
    ['22023', 'a data error'],
    ['54000', 'a program limit'],
  ])('quarantines at the event whose rows Postgres refuses with %s (%s)', async (code) => {
    const graphKey = `pg-${code}`;
    const graphId = await graphWith(graphKey, 4, validRun(graphKey, 24).slice(4));
    const bad = `${graphKey}-13`;
    await sql`create or replace function refuse_event() returns trigger language plpgsql as $$
      begin raise exception 'refused by test' using errcode = ${sql.lit(code)}; end $$`.execute(
      t.db,
    );
    await sql`create trigger refuse_event before insert on events for each row
      when (new.key = ${sql.lit(bad)}) execute function refuse_event()`.execute(t.db);
    try {
      const outcome = await (await ingestPipeline(t.db)).applier.applyPending(graphId);
      expect(outcome).toMatchObject({ applied: 9, stalled: { seq: 14 } });
      expect(outcome.stalled!.error).toBe(
        `event ${bad} (seq 14) could not be applied: error: refused by test`,
      );
    } finally {
      await sql`drop trigger refuse_event on events`.execute(t.db);
    }
    expect(await graphRow(graphId)).toMatchObject({ applied_seq: 13, stalled_seq: 14 });
    expect(await eventCount(graphId)).toBe(13);
    await expectListedStall(t.url, { graph_id: `gph_${graphKey}`, event_seq: 14, event_key: bad });
    // retry (the cause is gone): the graph applies to the end
    const retry = await cli(['stalled', 'retry', `gph_${graphKey}`], { DATABASE_URL: t.url });
    expect(retry).toMatchObject({ code: 0 });
    expect(await (await ingestPipeline(t.db)).applier.applyPending(graphId)).toMatchObject({
      applied: 11,
      stalled: null,
    });
  });

  it('quarantines at a stored spawn deeper than the tree allows (stored before the limit)', async () => {
    const chain: WatchEvent[] = [
      watchEvent('deep-0', 'session.started', 'deep-s') as unknown as WatchEvent,
    ];
    for (let i = 1; i <= LIMITS.treeDepth; i++) {
      const parent = i === 1 ? 'deep-s' : `deep-s/${i - 1}`;
      chain.push(
        watchEvent(`deep-${i}`, 'agent.spawned', `deep-s/${i}`, {
          parent,
          agent_type: 't',
          purpose: 'p',
        }) as unknown as WatchEvent,
      );
    }
    const { graphId } = await seedGraph(t.db, { graphKey: 'deep', events: chain });
    const tooDeep = watchEvent('deep-x', 'agent.spawned', 'deep-s/x', {
      parent: `deep-s/${LIMITS.treeDepth}`,
      agent_type: 't',
      purpose: 'p',
    });
    const seq = await storeUnchecked(t.db, graphId, tooDeep);
    const outcome = await (await ingestPipeline(t.db)).applier.applyPending(graphId);
    expect(outcome).toMatchObject({ applied: 0, stalled: { seq } });
    expect(outcome.stalled!.error).toMatch(/deep-x .*depth 32/);
    expect(await graphRow(graphId)).toMatchObject({ applied_seq: seq - 1, stalled_seq: seq });
  });

  it('quarantines at the event whose encoding throws (RangeError), alone or inside a batch', async () => {
    const graphId = await graphWith('enc', 5, validRun('enc', 30).slice(5));
    const commit = ApplyRepository.prototype.commitIfCurrent;
    const spy = jest
      .spyOn(ApplyRepository.prototype, 'commitIfCurrent')
      .mockImplementation(function (this: ApplyRepository, ...args) {
        const applied: AppliedEvent[] = args[2];
        if (applied.some((a) => a.event.key === 'enc-17'))
          return Promise.reject(new RangeError('Invalid string length'));
        return commit.apply(this, args);
      });
    const { applier } = await ingestPipeline(t.db, { APPLY_BATCH_SIZE: '50' });
    const outcome = await applier.applyPending(graphId);
    expect(outcome).toMatchObject({ applied: 12, stalled: { seq: 18 } });
    expect(outcome.stalled!.error).toBe(
      'event enc-17 (seq 18) could not be applied: RangeError: Invalid string length',
    );
    expect(await graphRow(graphId)).toMatchObject({ applied_seq: 17, stalled_seq: 18 });
    // one try of the whole run, then one per event up to the one at fault
    expect(spy).toHaveBeenCalledTimes(1 + 13);
  });

  it('applies a run whose batch fails as a whole but whose events each apply', async () => {
    const graphId = await graphWith('whole', 3, validRun('whole', 20).slice(3));
    const commit = ApplyRepository.prototype.commitIfCurrent;
    jest.spyOn(ApplyRepository.prototype, 'commitIfCurrent').mockImplementation(function (
      this: ApplyRepository,
      ...args
    ) {
      if (args[2].length > 1) return Promise.reject(new RangeError('Invalid string length'));
      return commit.apply(this, args);
    });
    const { applier } = await ingestPipeline(t.db);
    expect(await applier.applyPending(graphId)).toMatchObject({ applied: 17, stalled: null });
    expect(await graphRow(graphId)).toMatchObject({ applied_seq: 20, stalled_seq: null });
  });

  it.each([
    ['a lost connection', Object.assign(new Error('Connection terminated unexpectedly'), {})],
    [
      'a server shutdown (57P01)',
      Object.assign(new Error('terminating connection'), { code: '57P01' }),
    ],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    ],
    ['a deadlock (40P01)', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
  ])('retries on %s and quarantines nothing', async (_name, error) => {
    const key = `tr-${String(error.message.length)}`;
    const graphId = await graphWith(key, 2, validRun(key, 6).slice(2));
    jest.spyOn(ApplyRepository.prototype, 'commitIfCurrent').mockRejectedValueOnce(error);
    const { applier } = await ingestPipeline(t.db);
    await expect(applier.applyPending(graphId)).rejects.toBe(error);
    expect(await graphRow(graphId)).toMatchObject({ applied_seq: 2, stalled_seq: null });
    expect(await applier.applyPending(graphId)).toMatchObject({ applied: 4, stalled: null });
  });
});
