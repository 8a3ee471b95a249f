import type { WatchEvent } from '@graph-history/domain';

/**
 * Each state change is sent once: no `status` repeats its node's state without a new summary
 * (a creation leaves a node `working`), and no `status idle` follows an idle one.
 */
export function expectEachStateChangeOnce(events: WatchEvent[]): void {
  const last = new Map<string, { state: string; summary?: string }>();
  for (const e of events) {
    if (e.type === 'session.started' || e.type === 'agent.spawned') {
      last.set(e.node, { state: 'working' });
    }
    if (e.type !== 'status') continue;
    const before = last.get(e.node);
    const { state, summary } = e.payload;
    const repeated =
      before?.state === state &&
      (state === 'idle' || summary === undefined || summary === before.summary);
    expect([e.key, repeated ? `${state} again` : 'a change']).toEqual([e.key, 'a change']);
    last.set(e.node, summary === undefined ? { state } : { state, summary });
  }
}
