import { AppliedEvent } from '../applied-event';
import { GraphState } from '../graph-state';
import { NodeRecord } from '../node';
import { WatchEvent } from '../watch-event';
import { spawnAgent, startSession } from './create-node';
import { endNode } from './end-node';
import { EventContext } from './event-context';
import { finishEvent } from './finish-event';
import { sendMessage } from './message';
import { clearAttention, noteActivity, raiseAttention, setStatus, setTitle } from './node-updates';
import { checkRefs, RefView } from './ref-checks';
import { RejectedEventError } from './rejected-event-error';
import { updateTasks } from './tasks';
import { endWaits, startWaits } from './wait-events';
import { reportUsage } from './usage';

/** Validation's view of a state: the refs of its nodes, whether they have ended, their session and depth. */
export function stateRefView(state: GraphState): RefView {
  return {
    get(ref) {
      const no = state.byRef.get(ref);
      if (no === undefined) return undefined;
      const node = state.nodes.get(no)!;
      return {
        ended: node.ended !== null,
        sessionRef: state.nodes.get(node.sessionNo)!.ref,
        depth: node.depth,
      };
    },
  };
}

/**
 * Applies one parsed event as number `seq`, mutating `state` in place. Returns the stored event and
 * copies of every node version it produced. Throws `RejectedEventError` (state untouched) when the
 * state does not allow the event.
 */
export function applyEvent(state: GraphState, ev: WatchEvent, seq: number): AppliedEvent {
  if (!Number.isSafeInteger(seq) || seq <= state.lastSeq) {
    throw new RangeError(
      `Event seq ${seq} must be an integer above the last applied seq ${state.lastSeq}.`,
    );
  }
  const rejection = checkRefs(stateRefView(state), ev);
  if (rejection) throw new RejectedEventError(rejection);

  const ctx = new EventContext(state, seq, Math.max(ev.created, state.lastCreated));
  const rec =
    ev.type === 'session.started'
      ? startSession(ctx, ev)
      : ev.type === 'agent.spawned'
        ? spawnAgent(ctx, ev)
        : ctx.edit(state.byRef.get(ev.node)!);
  rec.lastEvent = ctx.created;
  applyToNode(ctx, rec, ev);
  state.lastSeq = seq;
  state.lastCreated = ctx.created;
  return finishEvent(ctx, ev, rec.no);
}

function applyToNode(ctx: EventContext, rec: NodeRecord, ev: WatchEvent): void {
  switch (ev.type) {
    case 'session.started':
    case 'agent.spawned':
      return;
    case 'status':
      return setStatus(rec, ev);
    case 'activity':
      return noteActivity(rec, ev);
    case 'title':
      return setTitle(rec, ev);
    case 'tasks.updated':
      return updateTasks(ctx, rec, ev);
    case 'wait.started':
      return startWaits(ctx, rec, ev);
    case 'wait.ended':
      return endWaits(ctx, rec, ev);
    case 'message.sent':
      return sendMessage(ctx, rec, ev);
    case 'attention.raised':
      return raiseAttention(ctx, rec, ev);
    case 'attention.cleared':
      return clearAttention(rec);
    case 'ended':
      return endNode(ctx, rec, ev);
    case 'usage.reported':
      return reportUsage(ctx, rec, ev);
  }
}
