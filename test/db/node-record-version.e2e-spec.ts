import { sql } from 'kysely';
import { NODE_RECORD_VERSION } from '@graph-history/domain';
import { up } from '../../db/migrations/0004_node_record_version';
import { writeRowsAsBefore0009 } from '../api/support/rows-before-0009';
import { EventScript } from '../api/support/watch-events';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { expectListsMatchTheReducer, seedHistory, SeededHistory } from './support/seeded-history';

/**
 * The node record's stored version tag, and migrating rows written before it. Since migration 0009
 * the apply writes no record (see the stored-json e2e test): rows get theirs as before it.
 */
describe('stored node record versions', () => {
  let t: TestDatabase;
  let h: SeededHistory;
  let last: number;

  beforeAll(async () => {
    t = await createTestDatabase();
    const s = new EventScript();
    s.session('S').agent('S/a', 'S').status('S/a', 'idle').agent('S/b', 'S');
    h = await seedHistory(t.db, 'versions', s.events);
    last = s.events.length;
    await writeRowsAsBefore0009(t.db, h.graphId, s.events, () => true);
  });
  afterAll(() => t.drop());

  const versions = async () =>
    (
      await sql<{ v: string | null }>`select rec ->> 'v' as v from node_versions`.execute(t.db)
    ).rows.map((r) => r.v);

  const readsMatchTheReducer = () => expectListsMatchTheReducer(t.db, h, last);

  it('tags every record the apply path wrote with the current version', async () => {
    expect(new Set(await versions())).toEqual(new Set([String(NODE_RECORD_VERSION)]));
    await readsMatchTheReducer();
  });

  it('reads rows from before the tag, and the migration tags them in place', async () => {
    await sql`update node_versions set rec = rec - 'v'`.execute(t.db);
    expect(new Set(await versions())).toEqual(new Set([null]));
    await readsMatchTheReducer();
    await up(t.db);
    expect(new Set(await versions())).toEqual(new Set(['1']));
    await readsMatchTheReducer();
  });
});
