import { AppliedEvent } from '../applied-event';
import { ChangeEntry } from '../event';
import { NodeRecord } from '../node';
import { presentNode } from '../public-node';
import type { PublicNode } from '../public/node.schema';
import { WatchEvent } from '../watch-event';
import { copyNodeRecord } from './copy-node-record';
import { EventContext } from './event-context';
import { applyCountDelta } from './graph-count-delta';
import { changedFields, createdFields } from './node-changes';

/** The node as the read API shows it (and stores it, see storedNodeJson); changes take its fields. */
const present = (graphId: number, rec: NodeRecord) => presentNode(graphId, '', rec, '', false);

/**
 * Turns the touched nodes into change entries and versions (the event's node first, the others by
 * node number), each with its presentation, and moves the graph counts. A node's fields before
 * the event are its presentation kept in the state (GraphState.presented) when it has one.
 */
export function finishEvent(ctx: EventContext, ev: WatchEvent, eventNodeNo: number): AppliedEvent {
  const { state } = ctx;
  const others = [...ctx.before.keys()].filter((no) => no !== eventNodeNo).sort((a, b) => a - b);
  const changes: ChangeEntry[] = [];
  const versions: NodeRecord[] = [];
  const presented: PublicNode[] = [];
  for (const no of [eventNodeNo, ...others]) {
    const before = ctx.before.get(no) as NodeRecord | null;
    const after = ctx.node(no);
    applyCountDelta(state.counts, before, after);
    const afterPublic = present(state.graphId, after);
    const fields =
      before === null
        ? createdFields(afterPublic)
        : changedFields(state.presented.get(no) ?? present(state.graphId, before), afterPublic);
    // unchanged, the presentation kept is still the node's (and the one its JSON was encoded from)
    if (before !== null && Object.keys(fields).length === 0) continue;
    state.presented.set(no, afterPublic);
    changes.push({ node_id: afterPublic.id, created: before === null, fields });
    versions.push(copyNodeRecord(after));
    presented.push(afterPublic);
  }
  const event = {
    seq: ctx.seq,
    key: ev.key,
    type: ev.type,
    created: ctx.created,
    nodeNo: eventNodeNo,
    source: { ...ev.source },
    payload: ev.payload as Record<string, unknown>,
    changes,
    counts: { ...state.counts, by_state: { ...state.counts.by_state } },
  };
  return {
    event,
    versions,
    presented,
    taskSnapshot: ctx.taskSnapshot,
    spawn: ctx.spawn,
    waitsOpened: ctx.waitsOpened,
    waitsClosed: ctx.waitsClosed,
    message: ctx.message,
  };
}
