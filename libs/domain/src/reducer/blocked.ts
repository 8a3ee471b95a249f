import { GraphState } from '../graph-state';
import { BlockedRecord } from '../node';
import { EventContext } from './event-context';

/** `origins` and every node that reaches one of them by following open waits. */
export function reachersOf(state: GraphState, origins: Iterable<number>): Set<number> {
  const found = new Set<number>(origins);
  const queue = [...found];
  while (queue.length) {
    for (const waiter of state.waitedBy.get(queue.pop()!) ?? []) {
      if (!found.has(waiter)) {
        found.add(waiter);
        queue.push(waiter);
      }
    }
  }
  return found;
}

/** Recomputes `blocked` of each node in `nos` from the open waits. */
export function recomputeBlocked(ctx: EventContext, nos: Iterable<number>): void {
  for (const no of nos) {
    const current = ctx.node(no).blocked;
    const next = blockedOf(ctx, no, current);
    if (!sameBlocked(current, next)) ctx.edit(no).blocked = next;
  }
}

/** Node `no`'s open tasks changed by `delta`: every other node that reaches it counts them. */
export function shiftOpenTasks(ctx: EventContext, no: number, delta: number): void {
  if (delta === 0) return;
  for (const reacher of reachersOf(ctx.state, [no])) {
    if (reacher === no) continue;
    const blocked = ctx.node(reacher).blocked;
    if (blocked) ctx.edit(reacher).blocked = { ...blocked, openTasks: blocked.openTasks + delta };
    else recomputeBlocked(ctx, [reacher]);
  }
}

function blockedOf(
  ctx: EventContext,
  no: number,
  current: BlockedRecord | null,
): BlockedRecord | null {
  const { state } = ctx;
  if (ctx.node(no).ended !== null) return null;
  const out = state.openWaits.get(no);
  if (!out) return null;
  const onNos = [...out.keys()].filter((on) => ctx.node(on).ended === null).sort((a, b) => a - b);
  if (onNos.length === 0) return null;

  const reached = new Set<number>();
  const queue = [no];
  let cycle = false;
  let openTasks = 0;
  while (queue.length) {
    for (const on of state.openWaits.get(queue.pop()!)?.keys() ?? []) {
      if (on === no) cycle = true;
      else if (!reached.has(on)) {
        reached.add(on);
        openTasks += ctx.node(on).taskCounts.open;
        queue.push(on);
      }
    }
  }
  return {
    onNos,
    starting: current?.starting ?? ctx.created,
    nodeCount: reached.size,
    openTasks,
    cycle,
  };
}

function sameBlocked(a: BlockedRecord | null, b: BlockedRecord | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.starting === b.starting &&
    a.nodeCount === b.nodeCount &&
    a.openTasks === b.openTasks &&
    a.cycle === b.cycle &&
    a.onNos.length === b.onNos.length &&
    a.onNos.every((on, i) => on === b.onNos[i])
  );
}
