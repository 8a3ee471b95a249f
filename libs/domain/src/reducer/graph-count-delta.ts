import { StoredGraphCounts } from '../graph-counts';
import { NodeRecord } from '../node';

/** Moves the graph counts by what one node's change did (`before` null: the node is new). */
export function applyCountDelta(
  counts: StoredGraphCounts,
  before: NodeRecord | null,
  after: NodeRecord,
): void {
  if (before === null) {
    counts.nodes++;
    if (after.kind === 'session') counts.sessions++;
    else counts.agents++;
    counts.by_state[after.state]++;
    if (after.blocked) counts.blocked++;
    return;
  }
  if (before.state !== after.state) {
    counts.by_state[before.state]--;
    counts.by_state[after.state]++;
  }
  if ((before.blocked === null) !== (after.blocked === null))
    counts.blocked += after.blocked ? 1 : -1;
}
