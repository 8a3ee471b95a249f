import { createTestDatabase, TestDatabase } from '../support/test-database';
import { createKey, TestKey } from './support/api-keys';
import { expectAppliedOnce } from './support/expect-applied-once';
import { deleteQueueKeys, uniqueQueuePrefix, waitFor } from './support/ingestor-harness';
import { IngestorProcess } from './support/ingestor-process';
import { postEvents } from './support/post-events';
import { validRun } from './support/watch-events';

const GRAPHS = 4;
const EVENTS_PER_GRAPH = 5_000;
const BATCH = 200;
const KILLS = 20;
/** Acknowledged events between two kills: 20 kills fit in the 20,000 events. */
const KILL_EVERY = 600;

/**
 * The built ingestor SIGKILLed 20 times while 20,000 events arrive for 4 graphs (the client
 * re-sends whatever was not acknowledged to the next process): every event is applied exactly
 * once, in order, and at every reading a graph holds 1,000 to 2,000 events once 1,000 arrived.
 */
describe('an ingestor killed 20 times during 20,000 events', () => {
  let t: TestDatabase;
  let key: TestKey;
  const queuePrefix = uniqueQueuePrefix();

  beforeAll(async () => {
    t = await createTestDatabase();
    key = await createKey(t.db, 'storm');
  });
  afterAll(async () => {
    await deleteQueueKeys(queuePrefix);
    await t.drop();
  });

  it('applies every acknowledged event exactly once, in order, within retention bounds', async () => {
    const graphs = Array.from({ length: GRAPHS }, (_, g) => ({
      graphKey: `storm-${g}`,
      events: validRun(`storm-${g}`, EVENTS_PER_GRAPH),
    }));
    const violations: string[] = [];
    let sampling = true;
    let readings = 0;
    const lastApplied = new Map<string, number>();
    const sampler = (async () => {
      while (sampling) {
        const rows = await t.db
          .selectFrom('graphs')
          .select(['graph_key', 'applied_seq', 'first_seq'])
          .execute();
        for (const r of rows) {
          readings++;
          const held = r.first_seq === null ? 0 : r.applied_seq - r.first_seq + 1;
          if (r.applied_seq >= 1_000 && (held < 1_000 || held > 2_000))
            violations.push(`${r.graph_key} held ${held} at applied_seq ${r.applied_seq}`);
          if (r.applied_seq < (lastApplied.get(r.graph_key) ?? 0))
            violations.push(`${r.graph_key} applied_seq went back to ${r.applied_seq}`);
          lastApplied.set(r.graph_key, r.applied_seq);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    const env = { databaseUrl: t.url, queuePrefix, logLevel: 'error' };
    const sent = graphs.map(() => 0);
    // A standby process boots while the current one works, so a kill costs no boot time: the
    // standby takes over the dead one's graphs (its sweeper rescues them) and gets the traffic.
    let proc = await IngestorProcess.start(env);
    let standby = IngestorProcess.start(env);
    let kills = 0;
    let ackedSinceStart = 0;
    try {
      while (sent.some((n) => n < EVENTS_PER_GRAPH)) {
        let killed = false;
        await Promise.all(
          graphs.map(async ({ graphKey, events }, g) => {
            if (sent[g]! >= EVENTS_PER_GRAPH) return;
            const batch = events.slice(sent[g], sent[g]! + BATCH);
            const res = await postEvents(proc.baseUrl, key.auth, graphKey, batch).catch(() => null);
            if (res?.status !== 202) return; // not acknowledged: sent again to the next process
            expect(res.body.accepted + res.body.duplicates).toBe(batch.length);
            sent[g]! += batch.length;
            ackedSinceStart += batch.length;
            if (kills < KILLS && ackedSinceStart >= KILL_EVERY && !killed) {
              killed = true;
              proc.kill('SIGKILL');
            }
          }),
        );
        if (!killed) continue;
        expect((await proc.exited).signal).toBe('SIGKILL');
        kills++;
        ackedSinceStart = 0;
        proc = await standby;
        standby = IngestorProcess.start(env);
      }
      expect(kills).toBe(KILLS);
      await waitFor(
        'every event to be applied',
        async () => {
          const rows = await t.db.selectFrom('graphs').select('applied_seq').execute();
          return rows.length === GRAPHS && rows.every((r) => r.applied_seq === EVENTS_PER_GRAPH);
        },
        30_000,
      );
    } finally {
      const last = await standby;
      for (const p of [proc, last]) p.kill('SIGTERM');
      await Promise.all([proc.exited, last.exited]);
      sampling = false;
      await sampler;
    }
    expect(violations).toEqual([]);
    expect(readings).toBeGreaterThan(100);
    for (const { graphKey, events } of graphs) await expectAppliedOnce(t.db, graphKey, events);
  }, 180_000);
});
