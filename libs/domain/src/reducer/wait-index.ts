import { GraphState } from '../graph-state';
import { WaitRecord } from '../records';

/** Keeps `openWaits` and its reverse index `waitedBy` in step. */
export function addOpenWait(state: GraphState, wait: WaitRecord): void {
  let out = state.openWaits.get(wait.nodeNo);
  if (!out) state.openWaits.set(wait.nodeNo, (out = new Map()));
  out.set(wait.onNo, wait);
  let into = state.waitedBy.get(wait.onNo);
  if (!into) state.waitedBy.set(wait.onNo, (into = new Set()));
  into.add(wait.nodeNo);
  state.openWaitCount++;
}

export function removeOpenWait(
  state: GraphState,
  nodeNo: number,
  onNo: number,
): WaitRecord | undefined {
  const out = state.openWaits.get(nodeNo);
  const wait = out?.get(onNo);
  if (!out || !wait) return undefined;
  out.delete(onNo);
  if (out.size === 0) state.openWaits.delete(nodeNo);
  const into = state.waitedBy.get(onNo)!;
  into.delete(nodeNo);
  if (into.size === 0) state.waitedBy.delete(onNo);
  state.openWaitCount--;
  return wait;
}
