import { LIMITS, Rejection, WatchEvent } from '../watch-event';

/**
 * What validation needs to know of an existing ref: whether its node has ended, the ref of the
 * session it belongs to and its depth (null when not known, for refs stored before they were
 * recorded; the reducer, which knows them, checks those again).
 */
export interface RefStatus {
  ended: boolean;
  sessionRef?: string | null;
  depth?: number | null;
}

export interface RefView {
  get(ref: string): RefStatus | undefined;
}

const CREATE_TYPES: ReadonlySet<string> = new Set(['session.started', 'agent.spawned']);
/** What a node that has ended still accepts: late activity, and usage reported after the end. */
const AFTER_END_TYPES: ReadonlySet<string> = new Set(['activity', 'usage.reported']);

export const isCreateEvent = (
  ev: WatchEvent,
): ev is Extract<WatchEvent, { type: 'session.started' | 'agent.spawned' }> =>
  CREATE_TYPES.has(ev.type);

const quote = (ref: string): string =>
  JSON.stringify(ref.length > 80 ? `${ref.slice(0, 80)}…` : ref);

const unknownRef = (param: string, ref: string): Rejection => ({
  param,
  message: `No node has ref ${quote(ref)} in this graph; send its session.started or agent.spawned event first.`,
});

/**
 * Every rule beyond shape that can refuse an event, decided from the refs known before it. The
 * ingestor runs it at ingest time and the reducer again when applying, so both agree.
 */
export function checkRefs(view: RefView, ev: WatchEvent): Rejection | null {
  const self = view.get(ev.node);
  if (isCreateEvent(ev)) {
    if (self) {
      return {
        param: 'node',
        message: `A node with ref ${quote(ev.node)} already exists; use a new ref for a new node.`,
      };
    }
    return (
      checkParent(view, ev.payload.parent) ?? checkAgentRef(view, ev) ?? checkRequestedBy(view, ev)
    );
  }
  if (!self) return unknownRef('node', ev.node);
  if (self.ended && !AFTER_END_TYPES.has(ev.type)) {
    return {
      param: 'node',
      message: `Node ${quote(ev.node)} has ended and accepts only activity and usage.reported events now; send no other event after its ended event.`,
    };
  }
  switch (ev.type) {
    case 'message.sent':
      return view.get(ev.payload.to) ? null : unknownRef('payload.to', ev.payload.to);
    case 'wait.started':
      return checkWaitTargets(view, ev.node, ev.payload.on, true);
    case 'wait.ended':
      return ev.payload.on ? checkWaitTargets(view, ev.node, ev.payload.on, false) : null;
    case 'tasks.updated':
      return checkTaskIds(ev.payload.tasks);
    default:
      return null;
  }
}

function checkParent(view: RefView, parent: string | undefined): Rejection | null {
  if (parent === undefined) return null;
  const node = view.get(parent);
  if (!node) return unknownRef('payload.parent', parent);
  if (node.ended) {
    return {
      param: 'payload.parent',
      message: `Node ${quote(parent)} has ended and cannot get new children; name a parent that is still running.`,
    };
  }
  if (typeof node.depth === 'number' && node.depth >= LIMITS.treeDepth) {
    return {
      param: 'payload.parent',
      message: `Node ${quote(parent)} is at depth ${node.depth}, the deepest a tree may go (${LIMITS.treeDepth} levels below its root); name a parent nearer the root.`,
    };
  }
  return null;
}

/** An agent's ref is its session's ref + `/` + a suffix (ingest.md). */
function checkAgentRef(view: RefView, ev: WatchEvent): Rejection | null {
  if (ev.type !== 'agent.spawned') return null;
  const session = view.get(ev.payload.parent)?.sessionRef;
  if (session === null || session === undefined) return null;
  if (ev.node.length > session.length + 1 && ev.node.startsWith(`${session}/`)) return null;
  return {
    param: 'node',
    message: `An agent's ref must be its session's ref followed by "/" and a suffix, here ${quote(`${session}/…`)}; rename the agent.`,
  };
}

/** Status of the node an accepted create event makes. */
export function createdRefStatus(
  view: RefView,
  ev: Extract<WatchEvent, { type: 'session.started' | 'agent.spawned' }>,
): RefStatus {
  const parent = ev.payload.parent === undefined ? undefined : view.get(ev.payload.parent);
  const depth = ev.payload.parent === undefined ? 0 : childDepth(parent?.depth);
  if (ev.type === 'agent.spawned')
    return { ended: false, sessionRef: parent?.sessionRef ?? null, depth };
  return { ended: false, sessionRef: ev.node, depth };
}

const childDepth = (parentDepth: number | null | undefined): number | null =>
  typeof parentDepth === 'number' ? parentDepth + 1 : null;

function checkRequestedBy(view: RefView, ev: WatchEvent): Rejection | null {
  if (ev.type !== 'agent.spawned' || ev.payload.requested_by === undefined) return null;
  return view.get(ev.payload.requested_by)
    ? null
    : unknownRef('payload.requested_by', ev.payload.requested_by);
}

function checkWaitTargets(
  view: RefView,
  self: string,
  on: string[],
  opening: boolean,
): Rejection | null {
  for (let i = 0; i < on.length; i++) {
    const ref = on[i]!;
    if (opening && ref === self) {
      return {
        param: `payload.on[${i}]`,
        message: 'A node cannot wait on itself; remove its own ref from payload.on.',
      };
    }
    if (!view.get(ref)) return unknownRef(`payload.on[${i}]`, ref);
  }
  return null;
}

function checkTaskIds(tasks: { id?: string }[]): Rejection | null {
  const seen = new Set<string>();
  for (let i = 0; i < tasks.length; i++) {
    const id = tasks[i]!.id;
    if (id === undefined) continue;
    if (seen.has(id)) {
      return {
        param: `payload.tasks[${i}].id`,
        message: `Task id ${quote(id)} appears twice in the list; give each task its own id.`,
      };
    }
    seen.add(id);
  }
  return null;
}
