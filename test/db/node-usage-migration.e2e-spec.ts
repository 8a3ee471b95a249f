import { sql } from 'kysely';
import { up, down } from '../../db/migrations/0016_node_usage';
import { seedGraph } from '../support/seed';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { validRun } from '../ingestor/support/watch-events';

/** Node JSON as rows written before migration 0016 held it: no `usage`, no `descendant_usage`. */
const withoutUsage = (json: string) =>
  json.replace(/,"usage":null,"descendant_usage":null\}$/, '}');

describe('migration 0016: stored nodes gain usage and descendant_usage', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  const nodes = async () =>
    (
      await sql<{ j: string }>`
        select public_json as j from node_versions order by graph_id, node_no, valid_from`.execute(
        t.db,
      )
    ).rows.map((r) => r.j);

  it('appends null usage to rows without it, as the reducer writes them now, and down removes it', async () => {
    await seedGraph(t.db, { graphKey: 'tree', events: validRun('v', 60) });
    const now = await nodes();
    expect(now.length).toBeGreaterThan(10);
    expect(now.every((j) => j.endsWith(',"usage":null,"descendant_usage":null}'))).toBe(true);

    await sql`update node_versions set public_json = left(public_json, -38) || '}'`.execute(t.db);
    const before = await nodes();
    expect(before).toEqual(now.map(withoutUsage));

    await up(t.db);
    expect(await nodes()).toEqual(now);
    await up(t.db); // rows that have the fields are left alone
    expect(await nodes()).toEqual(now);
    await down(t.db);
    expect(await nodes()).toEqual(before);
  });
});
