import { sql } from 'kysely';
import { down, up } from '../../db/migrations/0007_node_versions_superseded';
import { EventScript } from '../api/support/watch-events';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { expectListsMatchTheReducer, seedHistory, SeededHistory } from './support/seeded-history';

/** Version rows know where their validity ends; the migration fills that in for older rows. */
describe('node versions: superseded_seq', () => {
  let t: TestDatabase;
  let h: SeededHistory;
  let last: number;

  beforeAll(async () => {
    t = await createTestDatabase();
    const s = new EventScript();
    s.session('S')
      .agent('S/a', 'S')
      .status('S/a', 'idle')
      .agent('S/b', 'S')
      .status('S/a', 'working');
    h = await seedHistory(t.db, 'superseded', s.events);
    last = s.events.length;
  });
  afterAll(() => t.drop());

  const ends = async () =>
    (
      await sql<{ node_no: number; valid_from: string; superseded_seq: string | null }>`
        select node_no, valid_from, superseded_seq from node_versions
        where graph_id = ${h.graphId} order by node_no, valid_from`.execute(t.db)
    ).rows;

  const readsMatchTheReducer = () => expectListsMatchTheReducer(t.db, h, last);

  it("ends every version the apply writes at the node's next version", async () => {
    const rows = await ends();
    expect(rows.some((r) => r.superseded_seq !== null)).toBe(true);
    rows.forEach((r, i) => {
      const next = rows[i + 1];
      expect(r.superseded_seq).toBe(next?.node_no === r.node_no ? next.valid_from : null);
    });
    await readsMatchTheReducer();
  });

  it('the migration backfills the ends of rows written before the column', async () => {
    const before = await ends();
    await down(t.db);
    await up(t.db);
    expect(await ends()).toEqual(before);
    await readsMatchTheReducer();
  });
});
