/**
 * Tree-order keys: a node's key is its parent's key plus one segment, so byte order of the keys
 * (collation "C") is depth-first pre-order with children oldest first. A segment is the ordinal in
 * base 36 prefixed by its length as one base-36 digit, which keeps segments order-preserving and
 * prefix-free.
 */
export function sortKeySegment(ordinal: number): string {
  const digits = ordinal.toString(36);
  return digits.length.toString(36) + digits;
}

export const childSortKey = (parentKey: string, ordinal: number): string =>
  parentKey + sortKeySegment(ordinal);

/** Exclusive upper bound of a subtree: descendants have `key < sort_key < descendantsUpperBound(key)`. */
export const descendantsUpperBound = (sortKey: string): string => `${sortKey}~`;
