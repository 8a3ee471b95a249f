import { AppliedEvent } from '../applied-event';
import type { GraphState } from '../graph-state';
import { ChangeEntry } from '../event';
import { NodeRecord } from '../node';
import { presentNode } from '../public-node';
import { changeJson } from '../stored-json/change-json';
import { encodeNode, reencodeNode, type EncodedNode } from '../stored-json/encoded-node';
import { storedEventJsonOf } from '../stored-json/event-json';
import { WatchEvent } from '../watch-event';
import { copyNodeRecord } from './copy-node-record';
import { EventContext } from './event-context';
import { applyCountDelta } from './graph-count-delta';
import { changedFields, createdFields } from './node-changes';

/** The node as the read API shows it (and stores it, see storedNodeJson); changes take its fields. */
const present = (graphId: number, rec: NodeRecord) => presentNode(graphId, '', rec, '', false);

/**
 * Per state, each node as presented (and encoded) at the end of the last event that touched it: a
 * node changes only inside events (EventContext.edit), so that is the node before the next one.
 */
const presentedOf = new WeakMap<GraphState, Map<number, EncodedNode>>();

/**
 * Turns the touched nodes into change entries and versions (the event's node first, the others by
 * node number), moves the graph counts and builds the stored event. The stored JSON of a version
 * re-encodes only the fields that changed since the node's last one.
 */
export function finishEvent(ctx: EventContext, ev: WatchEvent, eventNodeNo: number): AppliedEvent {
  const { state } = ctx;
  let presentedNow = presentedOf.get(state);
  if (!presentedNow) presentedOf.set(state, (presentedNow = new Map()));
  const others = [...ctx.before.keys()].filter((no) => no !== eventNodeNo).sort((a, b) => a - b);
  const changes: ChangeEntry[] = [];
  const changesJson: string[] = [];
  const versions: NodeRecord[] = [];
  const nodeJson: string[] = [];
  for (const no of [eventNodeNo, ...others]) {
    const before = ctx.before.get(no) as NodeRecord | null;
    const after = ctx.node(no);
    applyCountDelta(state.counts, before, after);
    const afterPublic = present(state.graphId, after);
    const last = before === null ? undefined : presentedNow.get(no);
    const fields =
      before === null
        ? createdFields(afterPublic)
        : changedFields(last?.node ?? present(state.graphId, before), afterPublic);
    const encoded = last ? reencodeNode(last, afterPublic, fields) : encodeNode(afterPublic);
    presentedNow.set(no, encoded);
    if (before !== null && Object.keys(fields).length === 0) continue;
    const change = { node_id: afterPublic.id, created: before === null, fields };
    changes.push(change);
    changesJson.push(changeJson(change, last ?? null, encoded));
    versions.push(copyNodeRecord(after));
    nodeJson.push(encoded.json);
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
    eventJson: storedEventJsonOf(state.graphId, event, changesJson),
    versions,
    nodeJson,
    taskSnapshot: ctx.taskSnapshot,
    spawn: ctx.spawn,
    waitsOpened: ctx.waitsOpened,
    waitsClosed: ctx.waitsClosed,
    message: ctx.message,
  };
}
