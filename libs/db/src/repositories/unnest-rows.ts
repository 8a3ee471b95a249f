import { sql, type Expression } from 'kysely';

/**
 * `(select * from unnest(a, b, …) with ordinality as x(a, b, …, i)) as p`: parallel arrays as the
 * rows of table `p`, numbered from 1 in column `i`, so that each can drive its own lateral lookup
 * and results come back to their input position.
 */
export function unnestRows<R extends Record<string, unknown>>(arrays: {
  [K in keyof R]: Expression<R[K][]>;
}) {
  const columns = Object.keys(arrays).map((c) => sql.id(c));
  return sql<R & { i: number }>`(select * from unnest(${sql.join(Object.values(arrays))})
    with ordinality as x(${sql.join(columns)}, i))`.as('p');
}
