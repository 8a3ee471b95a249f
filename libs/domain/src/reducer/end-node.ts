import { NodeRecord } from '../node';
import { EventOf } from '../watch-event';
import { uncountBackgroundAgent } from './ancestors';
import { reachersOf, recomputeBlocked } from './blocked';
import { EventContext } from './event-context';
import { setSummary } from './node-updates';
import { closeOwnWaits, closeWaitsOn } from './waits';

/**
 * Ends the node: its own waits close, every wait on it closes (those nodes stop being blocked by
 * it), a background agent stops counting for its ancestors, and pending attention is cleared.
 */
export function endNode(ctx: EventContext, rec: NodeRecord, ev: EventOf<'ended'>): void {
  const affected = reachersOf(ctx.state, [rec.no]);
  rec.ended = ctx.created;
  rec.state = ev.payload.state;
  rec.attention = null;
  setSummary(rec, ev.payload.summary);
  closeOwnWaits(ctx, rec.no);
  closeWaitsOn(ctx, rec.no);
  if (rec.kind === 'agent' && rec.background === true && rec.parentNo !== null) {
    uncountBackgroundAgent(ctx, rec.parentNo);
  }
  recomputeBlocked(ctx, affected);
}
