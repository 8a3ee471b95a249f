import { sql, type AliasedExpression, type Expression, type RawBuilder } from 'kysely';
import type { Db } from '../connection';

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

/** What boundedRows reads of its rows `b`: which columns, in which order, how large. */
export interface BoundedColumns {
  /** Columns read as they are (small). */
  light: string[];
  /** Columns left null on the row that does not fit. */
  heavy: string[];
  /** The rows' order, over columns of `b` (e.g. sql`b.i, b.seq`). */
  order: RawBuilder<unknown>;
  /** Bytes of a row, over columns of `b` (lengths only, see byteColumns). */
  size: RawBuilder<number | null>;
}

/**
 * The rows of a query (aliased `b` here) read within `maxBytes` (see fitsIn): those that fit,
 * in order, and the first that does not (`fits` false, its heavy columns null), if any.
 */
export async function boundedRows<R>(
  db: Db,
  rows: { as(alias: 'b'): AliasedExpression<unknown, 'b'> },
  c: BoundedColumns,
  maxBytes: number,
): Promise<(R & { fits: boolean })[]> {
  const max = sql.val(maxBytes);
  const out = await db
    .selectFrom(
      db
        .selectFrom(rows.as('b'))
        .selectAll()
        .select(byteColumns(c.size, c.order, 'asc'))
        .as('s'),
    )
    .where(readIn(max))
    .select(c.light.map((col) => sql.ref(`s.${col}`).as(col)))
    .select(c.heavy.map((col) => ifFits(max, col).as(col)))
    .select(fitsIn(max).as('fits'))
    .orderBy(sql.ref('s.n'))
    .execute();
  return out as unknown as (R & { fits: boolean })[];
}
