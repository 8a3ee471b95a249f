import { Insertable, RawBuilder, sql } from 'kysely';
import { Database } from '../schema';
import { arrayLiteral } from './array-literal';

type Table = keyof Database & string;

/** The Postgres type each inserted column travels as. */
export type ValueType = 'bigint' | 'int' | 'text' | 'boolean' | 'jsonb' | 'long text';

/** The columns to insert into `T`, in order, with their types. */
export type InsertColumns<T extends Table> = Partial<Record<keyof Database[T] & string, ValueType>>;

/**
 * `insert into <table> (<columns>) select … from rows from (unnest($1::bigint[]), …) [where
 * <onlyIf>]`: many rows with one bind parameter per column (no 65,535-parameter limit), also
 * usable as a CTE of a larger statement (`onlyIf` then typically tests another CTE). Scalar
 * columns travel as typed arrays (array literals built here, see arrayLiteral); jsonb columns as
 * one JSON array each, split by `jsonb_array_elements` (no per-row JSON parsing of whole rows), long
 * texts as one JSON array of strings. An empty `rows` inserts nothing.
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
    if (type === 'jsonb') return sql`jsonb_array_elements(${JSON.stringify(values)}::jsonb)`;
    // one JSON array: cheaper than escaping quote-heavy texts into an array literal
    if (type === 'long text') return sql`json_array_elements_text(${JSON.stringify(values)}::json)`;
    return sql`unnest(${arrayLiteral(values, type)}::${sql.raw(type)}[])`;
  });
  // A JSON null in a jsonb array is SQL null in the row, as for any other column.
  const selected = names.map((name) =>
    columns[name] === 'jsonb' ? sql`nullif(${sql.ref(name)}, 'null'::jsonb)` : sql.ref(name),
  );
  return sql`insert into ${sql.table(table)} (${cols})
    select ${sql.join(selected)} from rows from (${sql.join(sources)}) as r(${cols})
    where ${onlyIf}`;
}
