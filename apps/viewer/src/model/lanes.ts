import type { Blocked, GraphEvent, Node, NodeState } from '../api/types';

export interface Segment {
  from: number;
  to: number;
  state: NodeState;
}

export interface LaneWait {
  from: number;
  to: number;
  onId: string;
}

/** One node's history over the retained events: state spells, waits, spawn ticks. */
export interface Lane {
  segments: Segment[];
  waits: LaneWait[];
  spawns: number[];
}

interface Step<T> {
  at: number;
  from: T;
  to: T;
}

/**
 * The swimlanes of `nodes` between `start` and `end`, from the retained events' changes: a node's
 * state before the first retained change of it is that change's `from` (else its state now).
 */
export function buildLanes(
  nodes: readonly Node[],
  events: readonly GraphEvent[],
  start: number,
  end: number,
): Map<string, Lane> {
  const states = new Map<string, Step<NodeState>[]>();
  const blocks = new Map<string, Step<Blocked | null>[]>();
  const born = new Map<string, number>();
  const spawns = new Map<string, number[]>();
  const push = <T>(m: Map<string, Step<T>[]>, id: string, s: Step<T>) => {
    const l = m.get(id);
    if (l) l.push(s);
    else m.set(id, [s]);
  };
  for (const e of events)
    for (const c of e.changes) {
      if (c.created) {
        born.set(c.node_id, e.created);
        const parent = c.fields.parent_id?.to;
        if (e.type === 'agent.spawned' && typeof parent === 'string') {
          const l = spawns.get(parent);
          if (l) l.push(e.created);
          else spawns.set(parent, [e.created]);
        }
      }
      const st = c.fields.state;
      if (st)
        push(states, c.node_id, {
          at: e.created,
          from: st.from as NodeState,
          to: st.to as NodeState,
        });
      const bl = c.fields.blocked;
      if (bl)
        push(blocks, c.node_id, {
          at: e.created,
          from: bl.from as Blocked | null,
          to: bl.to as Blocked | null,
        });
    }

  const lanes = new Map<string, Lane>();
  for (const n of nodes) {
    const t0 = Math.max(start, born.get(n.id) ?? start);
    const steps = states.get(n.id) ?? [];
    const segments: Segment[] = [];
    let at = t0;
    let state: NodeState = steps[0]?.from ?? n.state;
    for (const s of steps) {
      if (s.from === null) {
        state = s.to;
        continue;
      }
      if (s.at > at) segments.push({ from: at, to: s.at, state });
      at = Math.max(at, s.at);
      state = s.to;
    }
    segments.push({
      from: at,
      to: n.ended !== null && n.ended >= at ? Math.min(end, n.ended) : end,
      state,
    });

    const waits: LaneWait[] = [];
    const bsteps = blocks.get(n.id) ?? [];
    let blocked: Blocked | null = bsteps[0] ? bsteps[0].from : n.blocked;
    let since = t0;
    for (const s of bsteps) {
      if (blocked) for (const onId of blocked.on_ids) waits.push({ from: since, to: s.at, onId });
      blocked = s.to;
      since = s.at;
    }
    if (blocked) for (const onId of blocked.on_ids) waits.push({ from: since, to: end, onId });
    lanes.set(n.id, { segments, waits, spawns: spawns.get(n.id) ?? [] });
  }
  return lanes;
}
