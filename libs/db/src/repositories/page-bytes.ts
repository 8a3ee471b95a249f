import { sql, type Expression, type RawBuilder } from 'kysely';

/** No byte bound: a page stopped by its limit only. */
export const UNBOUNDED_BYTES = Number.MAX_SAFE_INTEGER;

/**
 * A page cut to a byte bound, in scan order: the rows that fit, and whether a row was left out for
 * the bound (then more rows follow the last one, whatever the limit).
 */
export interface SizedPage<T> {
  rows: T[];
  cut: boolean;
}

/**
 * The columns a page's subquery `s` is bounded by, computed over rows already limited and in scan
 * order: `n` (position), `own` (the row's bytes, `size`) and `upto` (bytes of the rows up to and
 * including it). `size` must read lengths only (octet_length of a text reads its TOAST header,
 * not the value), so rows left out cost no more than their length.
 */
export const byteColumns = (
  size: Expression<number | null>,
  order: Expression<unknown>,
  direction: 'asc' | 'desc',
) => {
  const window = sql`over (order by ${order} ${sql.raw(direction)} rows unbounded preceding)`;
  return [
    sql<number>`row_number() ${window}`.as('n'),
    sql<number>`coalesce(${size}, 0)`.as('own'),
    sql<number>`sum(coalesce(${size}, 0)) ${window}`.as('upto'),
  ] as const;
};

/**
 * A row of `s` is sent when it is the first (a page holds at least one item) or the bytes up to it
 * are within `maxBytes`. Only rows that fit, plus the first that does not, are read: that one, its
 * contents left out (see fitsIn), tells that the page was cut.
 */
export const fitsIn = (maxBytes: Expression<number>): RawBuilder<boolean> =>
  sql<boolean>`(s.n = 1 or s.upto <= ${maxBytes})`;

export const readIn = (maxBytes: Expression<number>): RawBuilder<boolean> =>
  sql<boolean>`(s.n <= 2 or s.upto - s.own <= ${maxBytes})`;

/** A column of `s`, null on the row that does not fit (so its contents are never read). */
export const ifFits = <T>(maxBytes: Expression<number>, column: string): RawBuilder<T | null> =>
  sql<T | null>`case when ${fitsIn(maxBytes)} then ${sql.ref(`s.${column}`)} end`;

/** Rows of a bounded page (each with `fits`) as a SizedPage: those that fit, and whether one did not. */
export function sizedPage<R extends { fits: boolean }, T>(
  rows: R[],
  item: (r: R) => T,
): SizedPage<T> {
  const out: T[] = [];
  for (const r of rows) {
    if (!r.fits) return { rows: out, cut: true };
    out.push(item(r));
  }
  return { rows: out, cut: false };
}
