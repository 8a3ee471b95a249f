import { Insertable, RawBuilder, sql } from 'kysely';
import { Database } from '../schema';
import { arrayLiteral } from './array-literal';
import { JSON_TEXTS_SEPARATOR, jsonTexts } from './json-texts';

type Table = keyof Database & string;

/**
 * The Postgres type each inserted column travels as. `json text`: a text column holding JSON
 * texts (as JSON.stringify writes them), sent as they are (see jsonTexts); `jsonb text`: a jsonb
 * column given such texts; `jsonb`: a jsonb column given values.
 */
export type ValueType =
  'bigint' | 'int' | 'text' | 'boolean' | 'jsonb' | 'jsonb text' | 'json text';

/** The columns to insert into `T`, in order, with their types. */
export type InsertColumns<T extends Table> = Partial<Record<keyof Database[T] & string, ValueType>>;

/**
 * `insert into <table> (<columns>) select … from rows from (unnest($1::bigint[]), …) [where
 * <onlyIf>]`: many rows with one bind parameter per column (no 65,535-parameter limit), also
 * usable as a CTE of a larger statement (`onlyIf` then typically tests another CTE). Scalar
 * columns travel as typed arrays (array literals built here, see arrayLiteral); jsonb and JSON
 * text columns as their JSON texts joined into one text, split by `string_to_table` (no second
 * escaping of the texts, no parsing of one big JSON document). An empty `rows` inserts nothing.
 */
export function insertRowsSql<T extends Table>(
  table: T,
  columns: InsertColumns<T>,
  rows: Insertable<Database[T]>[],
  onlyIf: RawBuilder<unknown> = sql`true`,
): RawBuilder<unknown> {
  const names = Object.keys(columns) as (keyof Database[T] & string)[];
  const cols = sql.join(names.map((c) => sql.ref(c)));
  const sources = names.map((name) => {
    const values = rows.map((r) => (r as Record<string, unknown>)[name] ?? null);
    const type = columns[name]!;
    if (type === 'jsonb' || type === 'jsonb text' || type === 'json text') {
      const texts = type === 'jsonb' ? values.map(jsonOrNull) : (values as (string | null)[]);
      // a null travels as an empty field, which no JSON text is
      return sql`string_to_table(${jsonTexts(texts)}::text, ${JSON_TEXTS_SEPARATOR}::text, '')`;
    }
    return sql`unnest(${arrayLiteral(values, type)}::${sql.raw(type)}[])`;
  });
  const selected = names.map((name) =>
    columns[name] === 'jsonb' || columns[name] === 'jsonb text'
      ? sql`${sql.ref(name)}::jsonb`
      : sql.ref(name),
  );
  return sql`insert into ${sql.table(table)} (${cols})
    select ${sql.join(selected)} from rows from (${sql.join(sources)}) as r(${cols})
    where ${onlyIf}`;
}

/** A jsonb column's value as JSON text; null for SQL null (also for a JSON null). */
const jsonOrNull = (v: unknown): string | null => (v === null ? null : JSON.stringify(v));
