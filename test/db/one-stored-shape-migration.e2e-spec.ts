import { sql } from 'kysely';
import type { WatchEvent } from '@graph-history/domain';
import { simulate } from '@graph-history/simulator';
import { down, up } from '../../db/migrations/0017_one_stored_shape';
import { writeRowsAsBefore0009 } from '../api/support/rows-before-0009';
import { EventScript } from '../api/support/watch-events';
import { seedGraph } from '../support/seed';
import { createTestDatabase, TestDatabase } from '../support/test-database';

/** Which form a row is put in: (node number, or 0 for an event, + seq) % 3. */
const BEFORE_0008 = 0;
const OF_0008 = 1;

describe('migration 0017: one stored shape', () => {
  let t: TestDatabase;
  const graphs: { graphId: number; events: WatchEvent[] }[] = [];

  beforeAll(async () => {
    t = await createTestDatabase();
    // more rows than the migration rewrites per statement, attention and wait objects, unicode
    const [sim] = simulate({ graphs: 1, events: 1_200, seed: 'one-shape', graphKeyPrefix: 'os' });
    const s = new EventScript(1_700_000_000_000, 1_000);
    s.session('s')
      .agent('s/a', 's')
      .attention('s/a', 'question', 'Which one? "A" or \\B\\ – ünïcödé')
      .agent('s/b', 's')
      .message('s/a', 's/b', 'hi')
      .waitStarted('s/a', ['s/b'], 'waiting')
      .tasks('s/b', [{ content: 'x', status: 'in_progress' }])
      .ended('s/b');
    for (const [graphKey, events] of [
      // rows of the older forms predate usage reports (0016): none is stored in them
      [sim!.graphKey, sim!.events.filter((e) => e.type !== 'usage.reported')],
      ['script', s.events],
    ] as const) {
      const { graphId } = await seedGraph(t.db, { graphKey, events });
      graphs.push({ graphId, events });
    }
  }, 120_000);
  afterAll(() => t.drop());

  const stored = async () => ({
    events: (
      await sql<{ graph_id: number; seq: number; public_json: string }>`
        select graph_id, seq, public_json from events order by graph_id, seq`.execute(t.db)
    ).rows,
    versions: (
      await sql<{ public_json: string; created_seq: number }>`
        select graph_id, node_no, valid_from, public_json, created_seq from node_versions
        order by graph_id, node_no, valid_from`.execute(t.db)
    ).rows,
  });
  const count = async (query: string) =>
    Number((await sql<{ n: string }>`${sql.raw(query)}`.execute(t.db)).rows[0]!.n);
  const columns = async () =>
    (
      await sql<{ c: string }>`select table_name || '.' || column_name as c
        from information_schema.columns
        where table_name in ('events', 'node_versions') order by 1`.execute(t.db)
    ).rows.map((r) => r.c);

  it('stores older rows as the apply stores them today, byte for byte, then drops their jsonb', async () => {
    const today = await stored();
    expect(today.events.length).toBeGreaterThan(1_000);
    expect(today.versions.length).toBeGreaterThan(1_000);
    const columnsToday = await columns();

    await down(t.db);
    expect(await columns()).toEqual(
      [
        ...columnsToday,
        'events.changes',
        'events.payload',
        'events.source',
        'node_versions.rec',
      ].sort(),
    );
    // rows as the apply wrote them before 0008 (jsonb only), as of 0008 (jsonb and JSON, no
    // created_seq) and since 0009 (JSON only), mixed in each graph; some records written before
    // their version tag (0004)
    for (const { graphId, events } of graphs)
      await writeRowsAsBefore0009(t.db, graphId, events, (no, seq) => (no + seq) % 3 <= OF_0008);
    await sql`update events set public_json = null
      where seq % 3 = ${BEFORE_0008}`.execute(t.db);
    await sql`update node_versions set public_json = null
      where (node_no + valid_from) % 3 = ${BEFORE_0008}`.execute(t.db);
    await sql`update node_versions set rec = rec - 'v' where node_no % 2 = 0`.execute(t.db);
    expect(
      await count(`select count(*) as n from events where public_json is null`),
    ).toBeGreaterThan(300);
    expect(
      await count(
        `select count(*) as n from events where public_json is not null and source is not null`,
      ),
    ).toBeGreaterThan(300);
    expect(await count(`select count(*) as n from events where source is null`)).toBeGreaterThan(
      300,
    );
    expect(
      await count(`select count(*) as n from node_versions where public_json is null`),
    ).toBeGreaterThan(300);
    expect(
      await count(`select count(*) as n from node_versions
        where public_json is not null and rec is not null and created_seq is null`),
    ).toBeGreaterThan(300);
    expect(await count(`select count(*) as n from node_versions where rec ? 'v'`)).toBeGreaterThan(
      100,
    );
    expect(
      await count(
        `select count(*) as n from node_versions where rec is not null and not rec ? 'v'`,
      ),
    ).toBeGreaterThan(100);

    await up(t.db);
    expect(await stored()).toEqual(today);
    expect(await columns()).toEqual(columnsToday);
    const nullable = await sql<{ c: string }>`select table_name || '.' || column_name as c
      from information_schema.columns where is_nullable = 'YES'
        and column_name in ('public_json', 'created_seq')`.execute(t.db);
    expect(nullable.rows).toEqual([]);
  });
});
