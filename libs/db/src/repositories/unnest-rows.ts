import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * `(select * from unnest(a, b, …) with ordinality as x(a, b, …, i)) as p`: parallel arrays as the
 * rows of table `p`, numbered from 1 in column `i`, so that each can drive its own lateral lookup
 * and results come back to their input position.
 */
export function unnestRows<R extends Record<string, unknown>>(arrays: {
  [K in keyof R]: Expression<R[K][]>;
}) {
  return unnested<R>(arrays, sql``);
}

/**
 * unnestRows for a BatchedStatement: the items of a batch as the rows of `p`. The LIMIT (the
 * arrays' length: it drops nothing) makes a generic plan count on one row where it would count
 * on ten for an array parameter: Postgres then keeps that plan instead of planning each call
 * again for the batch's actual length (a custom plan costs far more than it saves here).
 */
export function batchRows<R extends Record<string, unknown>>(arrays: {
  [K in keyof R]: Expression<R[K][]>;
}) {
  const [first] = Object.values(arrays);
  return unnested<R>(arrays, sql` limit cardinality(${first})`);
}

function unnested<R extends Record<string, unknown>>(
  arrays: { [K in keyof R]: Expression<R[K][]> },
  limit: RawBuilder<unknown>,
) {
  const columns = Object.keys(arrays).map((c) => sql.id(c));
  return sql<R & { i: number }>`(select * from unnest(${sql.join(Object.values(arrays))})
    with ordinality as x(${sql.join(columns)}, i)${limit})`.as('p');
}

/** `values` as one parameter, a Postgres array of `pgType`. */
export const pgArray = <T>(values: T[], pgType: string) =>
  sql<T[]>`cast(${values} as ${sql.raw(pgType)}[])`;

/** Node numbers and the sequence to read each at, as the rows of `p` (`p.node_no`, `p.seq`). */
export const unnestNodesAt = (nodes: { nodeNo: number; seq: number }[]) =>
  unnestRows<{ node_no: number; seq: number }>({
    node_no: pgArray(
      nodes.map((n) => n.nodeNo),
      'int',
    ),
    seq: pgArray(
      nodes.map((n) => n.seq),
      'bigint',
    ),
  });
