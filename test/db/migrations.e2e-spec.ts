import { sql } from 'kysely';
import { migrateToLatest } from '@graph-history/db';
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
        and tc.table_name not in ('accounts', 'api_keys', 'graph_directory', 'viewer_sessions', 'id_key', 'kysely_migration', 'kysely_migration_lock')`.execute(
      t.db,
    );
    expect(rows.rows.length).toBeGreaterThan(8);
    for (const r of rows.rows)
      expect(`${r.table_name}.${r.column_name}`).toBe(`${r.table_name}.graph_id`);
  });
});
