import { sql } from 'kysely';
import { arrayLiteral } from '../../../libs/db/src/repositories/array-literal';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** The array literals the bulk inserts send: what Postgres reads back is what was sent. */
describe('arrayLiteral', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  const roundTrip = async (values: unknown[], type: 'bigint' | 'int' | 'text' | 'boolean') => {
    const { rows } = await sql<{
      v: unknown;
    }>`select v from unnest(${arrayLiteral(values, type)}::${sql.raw(type)}[]) with ordinality as a(v, i) order by i`.execute(
      t.db,
    );
    return rows.map((r) => r.v);
  };

  it('reads texts back as sent: quotes, backslashes, braces, commas, spaces, NULL-looking text, unicode', async () => {
    const texts = [
      'plain',
      'say "hi"',
      'back\\slash\\',
      '\\"',
      '{a,b}',
      ' padded ',
      'NULL',
      '',
      'line\nbreak\ttab',
      'émoji 🚀',
      null,
    ];
    expect(await roundTrip(texts, 'text')).toEqual(texts);
  });

  it('reads integers, booleans and nulls back as sent', async () => {
    expect(await roundTrip([1, -2, 9_007_199_254_740_991, null], 'bigint')).toEqual([
      1,
      -2,
      9_007_199_254_740_991,
      null,
    ]);
    expect(await roundTrip([0, 2_147_483_647, null], 'int')).toEqual([0, 2_147_483_647, null]);
    expect(await roundTrip([true, false, null], 'boolean')).toEqual([true, false, null]);
    expect(await roundTrip([], 'bigint')).toEqual([]);
    // without nulls (joined in one go)
    expect(await roundTrip([7, -0, -9_007_199_254_740_991], 'bigint')).toEqual([
      7, 0, -9_007_199_254_740_991,
    ]);
    expect(await roundTrip(['a', 'b c', '{x}', 'NULL', 'émoji 🚀'], 'text')).toEqual([
      'a',
      'b c',
      '{x}',
      'NULL',
      'émoji 🚀',
    ]);
    expect(await roundTrip([], 'text')).toEqual([]);
  });

  it('refuses a value that is not an integer for an integer column', () => {
    expect(() => arrayLiteral([1.5], 'bigint')).toThrow(TypeError);
    expect(() => arrayLiteral(['1; drop'], 'int')).toThrow(TypeError);
  });
});
