import { Migrator, sql } from 'kysely';
import { migrateToLatest } from '@graph-history/db';
import { migrations } from '@graph-history/migrations';
import { validRun } from '../ingestor/support/watch-events';
import { seedGraph } from '../support/seed';
import { createTestDatabase, TestDatabase } from '../support/test-database';

describe('migrations', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('clones a fully migrated template, and migrating again is a no-op', async () => {
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'public' order by 1`.execute(
      t.db,
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'accounts',
        'api_keys',
        'events',
        'graphs',
        'inbox',
        'node_versions',
        'waits',
      ]),
    );
    const again = await migrateToLatest(t.db);
    expect(again.results).toEqual([]);
  });

  it('leads every graph-scoped primary key with graph_id', async () => {
    const rows = await sql<{ table_name: string; column_name: string }>`
      select tc.table_name, kcu.column_name
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu
        on kcu.constraint_name = tc.constraint_name and kcu.ordinal_position = 1
      where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = 'public'
        and tc.table_name not in ('accounts', 'account_quotas', 'api_keys', 'graph_directory', 'viewer_sessions', 'id_key', 'notices', 'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts', 'kysely_migration', 'kysely_migration_lock')`.execute(
      t.db,
    );
    expect(rows.rows.length).toBeGreaterThan(8);
    for (const r of rows.rows)
      expect(`${r.table_name}.${r.column_name}`).toBe(`${r.table_name}.graph_id`);
  });
});

describe('migration 0011 (account quotas) on a database that holds graphs', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('counts the bytes of the events graphs hold, and only those', async () => {
    // past retention: the trimmed events keep their keys, which must not count
    const { graphId } = await seedGraph(t.db, { graphKey: 'm11', events: validRun('m', 2_300) });
    const migrator = new Migrator({
      db: t.db,
      provider: { getMigrations: async () => migrations },
    });
    const down = await migrator.migrateTo('0010_events_active_before');
    expect(down.results).toContainEqual(
      expect.objectContaining({ migrationName: '0011_account_quotas', direction: 'Down' }),
    );
    expect(down.error).toBeUndefined();
    expect((await migrateToLatest(t.db)).results).toContainEqual(
      expect.objectContaining({ migrationName: '0011_account_quotas', status: 'Success' }),
    );

    const graph = await t.db
      .selectFrom('graphs')
      .select('stored_bytes')
      .where('graph_id', '=', graphId)
      .executeTakeFirstOrThrow();
    const keys = await sql<{ weighed: number; held: number; bytes: number }>`select
        count(*) filter (where bytes > 0)::int as weighed,
        (select count(*)::int from events where graph_id = ${graphId}) as held,
        sum(bytes)::bigint as bytes
      from event_keys where graph_id = ${graphId}`.execute(t.db);
    const { weighed, held, bytes } = keys.rows[0]!;
    expect(held).toBeGreaterThanOrEqual(1_000);
    expect(held).toBeLessThan(2_300);
    expect(weighed).toBe(held);
    expect(graph.stored_bytes).toBe(Number(bytes));
    expect(graph.stored_bytes).toBeGreaterThan(held * 100);
  });
});
