import type { Node } from '../api/types';
import { isolated, UserText } from './user-text';

/** What needs a look: blocked (and deadlocked), attention, stale, background. */
export function NodeFlags({ node: n, nameOf }: { node: Node; nameOf: (id: string) => string }) {
  const b = n.blocked;
  return (
    <>
      {b && (
        <span
          class={`flag ${b.cycle ? 'cycle' : 'blocked'}`}
          title={`waiting on ${b.on_ids.map((id) => isolated(nameOf(id))).join(', ')}`}
        >
          {b.cycle ? 'cycle' : 'blocked'}
          {b.on_ids.length > 1 ? ` ×${b.on_ids.length}` : ''}
        </span>
      )}
      {n.attention && (
        <span class="flag attention" title={isolated(n.attention.message ?? n.attention.reason)}>
          ⚑ <UserText text={n.attention.reason} />
        </span>
      )}
      {n.stale && <span class="flag stale">stale</span>}
      {n.background && <span class="flag bg">background</span>}
    </>
  );
}
