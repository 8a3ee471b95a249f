import { sql, type Expression } from 'kysely';

/**
 * A row of a page as ONE text value: its fields joined by FIELD. pg's work per field of a result
 * is what a page of 1,000 rows of stored JSON costs most (more than the JSON itself), and
 * splitting a string costs little (the parts are slices of it). FIELD cannot be in a field: JSON
 * text escapes control characters, and the other fields are numbers and names. A null field is
 * empty.
 */
const FIELD = '\x1f';

/** The named fields of a page row sent as ONE text, in the one order its statement and reader use. */
export class RowText<N extends string> {
  constructor(private readonly names: readonly N[]) {}

  /** The fields' texts joined by FIELD, in one `concat` (null as ''). */
  select(fields: Record<N, Expression<unknown>>) {
    return sql<string>`concat(${sql.join(
      this.names.map((n) => fields[n]),
      sql`, chr(31), `,
    )})`;
  }

  /** The fields of a value `select` made, by name. */
  read(text: string): Record<N, string> {
    const parts = text.split(FIELD);
    const fields = {} as Record<N, string>;
    this.names.forEach((name, i) => (fields[name] = parts[i]!));
    return fields;
  }
}
