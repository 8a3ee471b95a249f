import { NodeKind, NodeRecord } from '../node';
import { EventOf } from '../watch-event';
import { countNewDescendant } from './ancestors';
import { reachersOf, recomputeBlocked } from './blocked';
import { EventContext } from './event-context';
import { childSortKey, sortKeySegment } from './sort-key';
import { NO_TASKS } from './tasks';
import { openWait } from './waits';

type CreateEvent = EventOf<'session.started'> | EventOf<'agent.spawned'>;

/** A working node placed under `parent` (or as the next root), with every optional field null. */
function newNode(
  ctx: EventContext,
  ev: CreateEvent,
  kind: NodeKind,
  parent: NodeRecord | null,
): NodeRecord {
  const { state } = ctx;
  const no = state.nodes.size + 1;
  return {
    no,
    ref: ev.node,
    kind,
    provider: ev.source.provider,
    parentNo: parent?.no ?? null,
    rootNo: parent?.rootNo ?? no,
    sessionNo: kind === 'session' ? no : parent!.sessionNo,
    requestedByNo: null,
    depth: parent ? parent.depth + 1 : 0,
    sortKey: parent
      ? childSortKey(parent.sortKey, parent.childCount)
      : sortKeySegment(state.rootCount),
    createdSeq: ctx.seq,
    state: 'working',
    attention: null,
    title: null,
    summary: null,
    headline: null,
    purpose: null,
    agentType: null,
    background: null,
    linkMethod: null,
    spawnCallId: null,
    cwd: ev.payload.cwd ?? null,
    created: ctx.created,
    ended: null,
    lastEvent: ctx.created,
    childCount: 0,
    descendantCount: 0,
    backgroundAgentCount: 0,
    taskCounts: NO_TASKS,
    blocked: null,
    usage: null,
    descendantUsage: null,
  };
}

function attach(ctx: EventContext, rec: NodeRecord): void {
  ctx.add(rec);
  if (rec.parentNo === null) ctx.state.rootCount++;
  else countNewDescendant(ctx, rec.parentNo, rec.background === true);
}

const nodeNoOf = (ctx: EventContext, ref: string): number => ctx.state.byRef.get(ref)!;

export function startSession(ctx: EventContext, ev: EventOf<'session.started'>): NodeRecord {
  const parent =
    ev.payload.parent === undefined ? null : ctx.node(nodeNoOf(ctx, ev.payload.parent));
  const rec = newNode(ctx, ev, 'session', parent);
  rec.title = ev.payload.title ?? null;
  attach(ctx, rec);
  return rec;
}

export function spawnAgent(ctx: EventContext, ev: EventOf<'agent.spawned'>): NodeRecord {
  const p = ev.payload;
  const parent = ctx.node(nodeNoOf(ctx, p.parent));
  const rec = newNode(ctx, ev, 'agent', parent);
  const background = p.background ?? false;
  const spawnCallId = p.spawn_call_id ?? null;
  rec.requestedByNo = p.requested_by === undefined ? parent.no : nodeNoOf(ctx, p.requested_by);
  rec.purpose = p.purpose;
  rec.agentType = p.agent_type;
  rec.background = background;
  rec.spawnCallId = spawnCallId;
  rec.linkMethod = p.link_method ?? (spawnCallId ? 'spawn_call_id' : 'explicit');
  attach(ctx, rec);

  ctx.spawn = {
    requesterNo: rec.requestedByNo,
    childNo: rec.no,
    seq: ctx.seq,
    spawnCallId,
    agentType: p.agent_type,
    purpose: p.purpose,
    background,
    created: ctx.created,
  };
  if (!background) {
    openWait(ctx, parent.no, rec.no, 'spawn');
    recomputeBlocked(ctx, reachersOf(ctx.state, [parent.no]));
  }
  return rec;
}
