import { NodeRecord } from '../node';
import { EventOf } from '../watch-event';
import { reachersOf, recomputeBlocked } from './blocked';
import { EventContext } from './event-context';
import { closeOwnWaits, closeWait, openWait } from './waits';

export function startWaits(ctx: EventContext, rec: NodeRecord, ev: EventOf<'wait.started'>): void {
  const reason = ev.payload.reason ?? null;
  for (const ref of new Set(ev.payload.on))
    openWait(ctx, rec.no, ctx.state.byRef.get(ref)!, reason);
  recomputeBlocked(ctx, reachersOf(ctx.state, [rec.no]));
}

/** Closes the listed waits, or all of the node's open waits when `on` is absent. */
export function endWaits(ctx: EventContext, rec: NodeRecord, ev: EventOf<'wait.ended'>): void {
  const on = ev.payload.on;
  if (on === undefined) closeOwnWaits(ctx, rec.no);
  else for (const ref of new Set(on)) closeWait(ctx, rec.no, ctx.state.byRef.get(ref)!);
  recomputeBlocked(ctx, reachersOf(ctx.state, [rec.no]));
}
