/**
 * Batched lateral queries number their inputs with `with ordinality` (1-based `i`); this splits
 * the result rows back into one list per input, in input order.
 */
export function groupByOrdinal<R extends { i: number }, T>(
  count: number,
  rows: R[],
  map: (r: R) => T,
): T[][] {
  const out: T[][] = Array.from({ length: count }, () => []);
  for (const r of rows) out[Number(r.i) - 1]!.push(map(r));
  return out;
}
