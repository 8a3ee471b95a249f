import { sql, type Expression } from 'kysely';

/**
 * A row of a page as ONE text value: its fields joined by FIELD. pg's work per field of a result
 * is what a page of 1,000 rows of stored JSON costs most (more than the JSON itself), and
 * splitting a string costs little (the parts are slices of it). FIELD cannot be in a field: JSON
 * text escapes control characters, and the other fields are numbers and names. A null field is
 * empty.
 */
const FIELD = '\x1f';

/** The fields' texts joined by FIELD, in one `concat` (null as ''). */
export const rowText = (fields: Expression<unknown>[]) =>
  sql<string>`concat(${sql.join(fields, sql`, chr(31), `)})`;

/** The fields of a rowText value. */
export const rowFields = (text: string): string[] => text.split(FIELD);
