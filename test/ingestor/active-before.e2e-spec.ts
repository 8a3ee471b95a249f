import { sql } from 'kysely';
import { applyEvent, createGraphState } from '@graph-history/domain';
import { AccountRepository } from '@graph-history/db';
import { EventScript } from '../api/support/watch-events';
import { ingestPipeline } from '../support/ingest-pipeline';
import { createTestDatabase, TestDatabase } from '../support/test-database';

const STALE_AFTER_MS = 120_000;

/**
 * The count the apply stores with each event (working nodes not stale just before it) across
 * batches of one run (the cached window) and a new process (the window rebuilt from the rows).
 */
describe('active working count stored by the apply', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('is, for every event, the working nodes as of the one before touched within the threshold', async () => {
    const s = new EventScript(1_700_000_000_000, 50_000);
    s.session('A').fanOut('A', 4);
    for (let round = 0; round < 6; round++) {
      s.activity(`A/a${round % 4}`).status(`A/a${(round + 1) % 4}`, round % 2 ? 'idle' : 'working');
      if (round === 2) s.time -= 400_000; // a sender's clock gone back: raised to the previous event
      if (round === 4) s.time += 500_000; // a long silence: everything falls stale
      s.agent(`A/b${round}`, 'A').activity('A');
    }
    s.ended('A/b1').activity('A/a2');
    const events = s.events;

    const { accountId } = await new AccountRepository(t.db).findOrCreate('active', 1);
    const env = { APPLY_BATCH_SIZE: '4', STALE_AFTER_MS: String(STALE_AFTER_MS) };
    const half = 17;
    let graphId = 0;
    for (const part of [events.slice(0, half), events.slice(half)]) {
      // a pipeline per part: a new process, whose window is built from the rows
      const { store, applier } = await ingestPipeline(t.db, env);
      ({ graphId } = await store.store({ accountId, graphKey: 'active', events: part }));
      expect((await applier.applyPending(graphId)).applied).toBe(part.length);
    }

    const state = createGraphState(graphId);
    const working: number[] = [];
    const expected = events.map((event, i) => {
      // read before the reducer changes the records in place
      const before = [...state.nodes.values()]
        .filter((r) => r.state === 'working')
        .map((r) => r.lastEvent);
      working.push(before.length);
      const { created } = applyEvent(state, event, i + 1).event;
      const active = before.filter((lastEvent) => lastEvent >= created - STALE_AFTER_MS).length;
      return { seq: i + 1, active_before: active, stale_after_ms: STALE_AFTER_MS };
    });
    const stored = await sql<{ seq: number; active_before: number; stale_after_ms: number }>`
      select seq, active_before, stale_after_ms from events where graph_id = ${graphId}
      order by seq`.execute(t.db);
    expect(stored.rows).toEqual(expected);
    // the history tells "not stale" apart from "working", and has moments where all are stale
    const counts = expected.map((e) => e.active_before);
    expect(counts.some((n, i) => n > 0 && n < working[i]!)).toBe(true);
    expect(counts.some((n, i) => n === 0 && working[i]! > 0)).toBe(true);
  });
});
