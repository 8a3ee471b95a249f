import type { NodeState } from '../api/types';
import { stateLabel } from '../model/format';

/** A node state as colour and text (never colour alone). */
export function StateBadge({ state }: { state: NodeState }) {
  return (
    <span class={`state s-${state}`}>
      <span class="dot" aria-hidden="true" />
      {stateLabel(state)}
    </span>
  );
}
