import { sql } from 'kysely';
import { inJsonbOrder } from '@graph-history/domain';
import { createTestDatabase, TestDatabase } from '../support/test-database';

/** inJsonbOrder gives the key order of a jsonb round trip, which the stored JSON must match. */
describe('inJsonbOrder', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  const values: unknown[] = [
    { b: 1, a: 2, aa: 3, B: 4, _: 5, '': 6 },
    { '10': 'x', '2': 'y', a: 'z', '-1': 0, '01': 1 },
    { é: 1, e: 2, z: 3, ü: 4, 日本: 5, '😀': 6, ab: 7, 'a\u00e9': 8 },
    {
      message: 'm',
      reason: 'r',
      since: 1,
      nested: [{ z: 1, y: { d: null, c: [3, { b: 1, a: 2 }] } }],
    },
    [1, 'two', null, true, { total: 1, open: 0, pending: 0, completed: 1, in_progress: 0 }],
    { __proto__x: 1, constructor: 2, toString: 3 },
    'plain',
    42,
    null,
  ];

  it('matches the order Postgres gives jsonb keys back', async () => {
    for (const v of values) {
      const { rows } = await sql<{
        j: string;
      }>`select ${JSON.stringify(v)}::jsonb::text as j`.execute(t.db);
      expect(JSON.stringify(inJsonbOrder(v))).toBe(JSON.stringify(JSON.parse(rows[0]!.j)));
    }
  });

  it('returns values already in order as they are', () => {
    const v = { a: 1, bb: { c: [1, { d: 2 }] } };
    expect(inJsonbOrder(v)).toBe(v);
  });
});
