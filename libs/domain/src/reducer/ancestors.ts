import { EventContext } from './event-context';

/** A node joined under `parentNo`: the parent gains a child, every ancestor a descendant. */
export function countNewDescendant(
  ctx: EventContext,
  parentNo: number,
  runningBackgroundAgent: boolean,
): void {
  ctx.edit(parentNo).childCount++;
  for (let no: number | null = parentNo; no !== null; no = ctx.node(no).parentNo) {
    const ancestor = ctx.edit(no);
    ancestor.descendantCount++;
    if (runningBackgroundAgent) ancestor.backgroundAgentCount++;
  }
}

/** A background agent under `parentNo` ended: it no longer counts for its ancestors. */
export function uncountBackgroundAgent(ctx: EventContext, parentNo: number): void {
  for (let no: number | null = parentNo; no !== null; no = ctx.node(no).parentNo) {
    ctx.edit(no).backgroundAgentCount--;
  }
}
