import type { WatchEvent } from '@graph-history/domain';

/**
 * An agent is emitted when its spawn call is tied to it (a later line) but dated by the call, so
 * it may follow events of later times. Moving each `agent.spawned` back to its place in time keeps
 * the stream ordered by `created` (ingest would otherwise raise it), and stays valid: it is moved
 * only past events that do not depend on it, never before its parent's creation.
 */
export function hoistCreations(events: WatchEvent[]): WatchEvent[] {
  const out: WatchEvent[] = [];
  const createdAt = new Map<string, number>();
  for (const event of events) {
    if (event.type !== 'agent.spawned') {
      out.push(event);
      if (event.type === 'session.started') createdAt.set(event.node, out.length - 1);
      continue;
    }
    const floor = createdAt.get(event.payload.parent) ?? -1;
    let at = out.length;
    while (at - 1 > floor && out[at - 1]!.created > event.created) at -= 1;
    out.splice(at, 0, event);
    for (const [ref, index] of createdAt) if (index >= at) createdAt.set(ref, index + 1);
    createdAt.set(event.node, at);
  }
  return out;
}
