import { sql, RawBuilder } from 'kysely';

/** Postgres text cannot hold NUL, nor JSON an unpaired surrogate: such a value was never stored. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
export const isStorableText = (s: string): boolean => !/\u0000|\p{Cs}/u.test(s);

/** `= any($1::text[])`: one bind parameter however many values (an `in` list is capped at 65,535). */
export const anyText = (values: string[]): RawBuilder<string> =>
  sql<string>`any(${values}::text[])`;
