import { sql } from 'kysely';
import {
  AccountRepository,
  Db,
  GraphWriteRepository,
  InboxRepository,
  WRITER_SESSION_OPTIONS,
} from '@graph-history/db';
import { createTestDatabase, TestDatabase } from '../support/test-database';

const KEYS_PER_GRAPH = 2_000;

/**
 * The writers' statements stay on the index that answers them for a graph that ANALYZE has not
 * seen: the ingest snapshot probes the graph's idempotency keys by (graph_id, key), not by walking
 * the graph's keys in seq order once per asked key (which a custom plan does: the statistics put
 * the new graph at one row). Index use is read from pg_stat_user_indexes, on one connection.
 */
describe('writer sessions (WRITER_SESSION_OPTIONS)', () => {
  let t: TestDatabase;
  let graphs: GraphWriteRepository;
  let accountId: number;

  beforeAll(async () => {
    t = await createTestDatabase({ max: 1, options: WRITER_SESSION_OPTIONS });
    graphs = new GraphWriteRepository(t.db);
    ({ accountId } = await new AccountRepository(t.db).findOrCreate('writer-session', 1));
    for (let g = 0; g < 20; g++) await storeKeys(await newGraph(`seen-${g}`));
    await sql`analyze event_keys`.execute(t.db);
  });
  afterAll(() => t.drop());

  async function newGraph(graphKey: string): Promise<number> {
    const { graphId } = await graphs.claimKey(graphKey, accountId);
    await graphs.createWatchGraph({ graphId, graphKey, accountId, created: 1 });
    return graphId;
  }

  const storeKeys = (graphId: number) =>
    sql`insert into event_keys (graph_id, key, seq)
        select ${graphId}, 'key-' || i, i from generate_series(1, ${KEYS_PER_GRAPH}) i`.execute(
      t.db,
    );

  /** Index scans of event_keys' indexes so far, with this session's counts flushed first. */
  async function indexScans(db: Db): Promise<Record<string, number>> {
    await sql`select pg_stat_force_next_flush()`.execute(db);
    await sql`select 1`.execute(db); // its end of statement flushes
    const { rows } = await sql<{ name: string; scans: number }>`
      select indexrelname as name, idx_scan::int as scans from pg_stat_user_indexes
      where relname = 'event_keys'`.execute(db);
    return Object.fromEntries(rows.map((r) => [r.name, r.scans]));
  }

  it('probes the keys of a graph created after ANALYZE by (graph_id, key)', async () => {
    const graphKey = 'unseen';
    await storeKeys(await newGraph(graphKey));
    const asked = Array.from({ length: 50 }, (_, i) => `key-${i * 40 + 1}`).concat('key-absent');

    const before = await indexScans(t.db);
    const snapshot = await new InboxRepository(t.db).snapshot(graphKey, asked, []);
    const after = await indexScans(t.db);

    expect(snapshot?.keys).toEqual(new Set(asked.slice(0, 50)));
    expect(after.event_keys_pk! - before.event_keys_pk!).toBeGreaterThan(0);
    expect(after.event_keys_seq).toBe(before.event_keys_seq);
  });
});
