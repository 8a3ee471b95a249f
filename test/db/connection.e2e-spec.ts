import { sql } from 'kysely';
import { types } from 'pg';
import { createTestDatabase, TestDatabase } from '../support/test-database';

describe('createDb', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('reads bigint columns as numbers on its own pool, leaving pg’s global parsers alone', async () => {
    const { rows } = await sql<{ n: unknown }>`select 9007199254740991::bigint as n`.execute(t.db);
    expect(rows).toEqual([{ n: 9007199254740991 }]);
    expect(types.getTypeParser(types.builtins.INT8)('42')).toBe('42');
  });
});
