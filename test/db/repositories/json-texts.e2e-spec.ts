import { sql } from 'kysely';
import { JSON_TEXTS_SEPARATOR, jsonTexts } from '../../../libs/db/src/repositories/json-texts';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** The JSON texts the bulk inserts send as one binary text: Postgres splits them back as sent. */
describe('jsonTexts', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  const roundTrip = async (texts: (string | null)[]) => {
    const { rows } = await sql<{ v: string | null }>`select v
      from string_to_table(${jsonTexts(texts)}::text, ${JSON_TEXTS_SEPARATOR}::text, '')
        with ordinality as a(v, i) order by i`.execute(t.db);
    return rows.map((r) => r.v);
  };

  it('reads JSON texts back as sent: escapes, quotes, unicode, astral characters, nulls', async () => {
    const values: unknown[] = [
      { a: 'say "hi"\n\t\u001e\u0001 back\\slash', b: [1, null, true] },
      'ünïcödé – \u{1F600} \u2028',
      null,
      '',
      [],
      { '': '', '\u001e': 1 },
    ];
    const texts = values.map((v) => (v === null ? null : JSON.stringify(v)));
    expect(await roundTrip(texts)).toEqual(texts);
    expect(await roundTrip([null])).toEqual([]);
    expect(await roundTrip([])).toEqual([]);
  });
});
