import type { Node, UsageTotals } from '../api/types';
import { NodeTree } from './node-tree';

/** How the tree's siblings are ordered: as created, or by their subtree's tokens or cost. */
export type UsageSort = 'tree' | 'tokens' | 'cost';

export const USAGE_SORTS: readonly { value: UsageSort; label: string }[] = [
  { value: 'tree', label: 'oldest first' },
  { value: 'tokens', label: 'most tokens' },
  { value: 'cost', label: 'highest cost' },
];

/** Every token of a usage, cache reads and writes included. */
export const totalTokens = (u: UsageTotals | null | undefined): number =>
  u ? u.input_tokens + u.output_tokens + u.cache_read_tokens + u.cache_creation_tokens : 0;

const keyOf = (by: UsageSort) => (n: Node) =>
  by === 'tokens' ? totalTokens(n.descendant_usage) : (n.descendant_usage?.cost_usd ?? -1);

/**
 * The tree with each node's children (and the roots) ordered by their subtree's usage, most
 * first; ties keep creation order. `tree` itself for creation order.
 */
export function sortedTree(tree: NodeTree, by: UsageSort): NodeTree {
  if (by === 'tree') return tree;
  const key = keyOf(by);
  const out: Node[] = [];
  const visit = (id: string | null): void => {
    const kids = tree.childIds(id).map((c) => tree.byId.get(c)!);
    kids.sort((a, b) => key(b) - key(a));
    for (const k of kids) {
      out.push(k);
      visit(k.id);
    }
  };
  visit(null);
  return new NodeTree(out);
}
