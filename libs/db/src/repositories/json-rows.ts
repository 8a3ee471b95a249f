import { Insertable, RawBuilder, sql } from 'kysely';
import { Database } from '../schema';

type Table = keyof Database & string;

/**
 * `insert into <table> (<columns>) select … from json_populate_recordset(…) [where <onlyIf>]`:
 * many rows with ONE bind parameter (no 65,535-parameter limit), also usable as a CTE of a larger
 * statement (`onlyIf` then typically tests another CTE). Rows travel as one JSON array that
 * Postgres turns into table rows; jsonb columns take plain values. An empty `rows` inserts nothing.
 */
export function insertRowsSql<T extends Table>(
  table: T,
  columns: readonly (keyof Database[T] & string)[],
  rows: Insertable<Database[T]>[],
  onlyIf: RawBuilder<unknown> = sql`true`,
): RawBuilder<unknown> {
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  return sql`insert into ${sql.table(table)} (${cols})
    select ${cols} from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::json)
    where ${onlyIf}`;
}
