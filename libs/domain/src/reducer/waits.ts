import { LIMITS } from '../watch-event';
import { EventContext } from './event-context';
import { addOpenWait, removeOpenWait } from './wait-index';

/**
 * Opens a wait of `nodeNo` on `onNo`; one already open stays as is. A wait on a node that has
 * already ended is recorded closed at once (it cannot block). While the graph holds
 * LIMITS.openWaits open waits, no other one opens: that bounds how many nodes one event can
 * block, unblock or recount (each node reached through waits has an open wait).
 */
export function openWait(
  ctx: EventContext,
  nodeNo: number,
  onNo: number,
  reason: string | null,
): void {
  if (ctx.state.openWaits.get(nodeNo)?.has(onNo)) return;
  const targetEnded = ctx.node(onNo).ended !== null;
  if (!targetEnded && ctx.state.openWaitCount >= LIMITS.openWaits) return;
  const wait = {
    nodeNo,
    onNo,
    startedSeq: ctx.seq,
    started: ctx.created,
    reason,
    endedSeq: targetEnded ? ctx.seq : null,
    ended: targetEnded ? ctx.created : null,
  };
  if (!targetEnded) addOpenWait(ctx.state, wait);
  ctx.waitsOpened.push({ ...wait });
}

export function closeWait(ctx: EventContext, nodeNo: number, onNo: number): void {
  const wait = removeOpenWait(ctx.state, nodeNo, onNo);
  if (!wait) return;
  ctx.waitsClosed.push({
    nodeNo,
    onNo,
    startedSeq: wait.startedSeq,
    endedSeq: ctx.seq,
    ended: ctx.created,
  });
}

/** Closes every open wait of `nodeNo`. */
export function closeOwnWaits(ctx: EventContext, nodeNo: number): void {
  for (const onNo of [...(ctx.state.openWaits.get(nodeNo)?.keys() ?? [])])
    closeWait(ctx, nodeNo, onNo);
}

/** Closes every open wait on `onNo`. */
export function closeWaitsOn(ctx: EventContext, onNo: number): void {
  for (const nodeNo of [...(ctx.state.waitedBy.get(onNo) ?? [])]) closeWait(ctx, nodeNo, onNo);
}
