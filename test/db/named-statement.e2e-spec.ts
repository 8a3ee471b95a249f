import { Kysely, PostgresDialect, sql } from 'kysely';
import { Pool } from 'pg';
import { Database, Db, executeNamed } from '@graph-history/db';
import { createTestDatabase, TestDatabase } from '../support/test-database';

const doubled = (n: number) => sql<{ n: number }>`select ${n}::int * 2 as n`;

/** Statements run by executeNamed are prepared once per connection of a createDb Db. */
describe('executeNamed', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase({ max: 1 });
  });
  afterAll(() => t.drop());

  const prepared = async (db: Db) => {
    const { rows } = await sql<{ name: string; calls: number }>`
      select name, generic_plans + custom_plans as calls from pg_prepared_statements`.execute(db);
    return rows;
  };

  it('prepares the statement once on the connection and runs it with each call’s parameters', async () => {
    await t.db.connection().execute(async (conn) => {
      expect(await executeNamed(conn, 'gh_test_doubled', doubled(2))).toEqual([{ n: 4 }]);
      expect(await executeNamed(conn, 'gh_test_doubled', doubled(21))).toEqual([{ n: 42 }]);
      expect(await prepared(conn)).toEqual([{ name: 'gh_test_doubled', calls: 2 }]);
    });
  });

  it('runs prepared inside a transaction, on the transaction’s connection', async () => {
    await t.db.transaction().execute(async (trx) => {
      expect(await executeNamed(trx, 'gh_test_in_trx', doubled(3))).toEqual([{ n: 6 }]);
      expect(await prepared(trx)).toContainEqual({ name: 'gh_test_in_trx', calls: 1 });
    });
  });

  it('refuses another text under a name already prepared, without running it', async () => {
    await t.db.connection().execute(async (conn) => {
      await executeNamed(conn, 'gh_test_twice', doubled(1));
      await expect(executeNamed(conn, 'gh_test_twice', sql`select 'other' as n`)).rejects.toThrow(
        /Prepared statements must be unique/,
      );
    });
  });

  it('runs unnamed, as a plain query, on a Db that createDb did not make', async () => {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new Pool({ connectionString: t.url, max: 1 }) }),
    });
    try {
      expect(await executeNamed(db, 'gh_test_plain', doubled(5))).toEqual([{ n: 10 }]);
      expect(await prepared(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
