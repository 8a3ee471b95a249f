import type { NodeRecord } from '@graph-history/domain';
import type { Moment } from '../as-of/moment';
import type { ExpandTree, NodeExpansion } from './expand-paths';

/** A node in a response: its record, the moment it is shown at, and what to expand on it. */
export interface NodeSlot {
  rec: NodeRecord;
  moment: Moment;
  tree: ExpandTree;
  expanded: Map<NodeExpansion, Expanded>;
}

/** What one expansion produced, before rendering. */
export type Expanded =
  | { kind: 'node'; slot: NodeSlot }
  | { kind: 'nodes'; slots: NodeSlot[]; hasMore: boolean; url: string; asOfEventId: string | null }
  | { kind: 'items'; items: object[]; url: string; asOfEventId: string | null };

export const nodeSlot = (
  rec: NodeRecord,
  moment: Moment,
  tree: ExpandTree | undefined,
): NodeSlot => ({
  rec,
  moment,
  tree: tree ?? new Map(),
  expanded: new Map(),
});
