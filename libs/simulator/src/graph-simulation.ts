import type { AttentionReason, EndState, WatchEvent } from '@graph-history/domain';
import { Random } from './random';
import { SimNode, SimTree } from './sim-tree';
import * as words from './vocabulary';

const SOURCE = { provider: 'claude-code', provider_version: '2.0.14', adapter: 'simulator/1' };
const MAX_DEPTH = 4;
const MAX_LIVE_CHILDREN = 5;
const MAX_LIVE_NODES = 40;

type Action =
  | 'activity'
  | 'status'
  | 'spawn'
  | 'subSession'
  | 'tasks'
  | 'waitStart'
  | 'waitEnd'
  | 'message'
  | 'attention'
  | 'attentionClear'
  | 'title'
  | 'end'
  | 'lateActivity'
  | 'usage';

/**
 * One graph's endless stream of valid WatchEvents: sessions that spawn agents (foreground and
 * background, several levels deep), task lists, waits (cycles included), messages, attention and
 * ends. Every event obeys ingest.md's rules, so any prefix of the stream is an acceptable ingest.
 */
export class GraphSimulation {
  private readonly rng: Random;
  private readonly tree = new SimTree();
  private clock: number;
  private count = 0;

  constructor(
    readonly graphKey: string,
    private readonly keyPrefix: string,
    seed: string,
    startTime: number,
  ) {
    this.rng = new Random(seed);
    this.clock = startTime;
  }

  /** Simulated time of the last event (skewed events may carry an earlier `created`). */
  get now(): number {
    return this.clock;
  }

  next(): WatchEvent {
    if (this.tree.live.length === 0) return this.startSession(null);
    const live = this.tree.live;
    const action = this.rng.weighted<Action>({
      activity: 30,
      status: 10,
      spawn: live.length < MAX_LIVE_NODES ? 12 : 0,
      subSession: live.length < MAX_LIVE_NODES ? 1 : 0,
      tasks: 8,
      waitStart: live.length > 1 ? 4 : 0,
      waitEnd: live.some((n) => n.waitsOn.size > 0) ? 5 : 0,
      message: live.length > 1 ? 5 : 0,
      attention: 2,
      attentionClear: live.some((n) => n.attention) ? 4 : 0,
      title: 1,
      end: 9,
      lateActivity: this.tree.ended.length > 0 ? 1 : 0,
      usage: 6,
    });
    return this[action]() ?? this.activity();
  }

  private emit(
    type: WatchEvent['type'],
    node: SimNode,
    payload: Record<string, unknown>,
  ): WatchEvent {
    this.clock += this.rng.chance(0.3) ? this.rng.int(20, 300) : this.rng.int(300, 4000);
    // Clocks skew: now and then an event claims a slightly earlier time than the previous one.
    const created = this.rng.chance(0.005) ? this.clock - this.rng.int(500, 3000) : this.clock;
    this.count++;
    return {
      key: `${this.keyPrefix}:${this.count}`,
      type,
      created,
      node: node.ref,
      source: SOURCE,
      payload,
    } as WatchEvent;
  }

  private newRef(make: () => string): string {
    let ref = make();
    while (this.tree.nodes.has(ref)) ref = make();
    return ref;
  }

  private startSession(parent: SimNode | null): WatchEvent {
    const r = this.rng;
    const ref = this.newRef(() => `${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}`);
    const node = this.tree.add(ref, 'session', parent, r.chance(0.7));
    const payload: Record<string, unknown> = {
      title: r.pick(words.SESSION_TITLES),
      cwd: r.pick(words.CWDS),
    };
    if (parent) payload.parent = parent.ref;
    return this.emit('session.started', node, payload);
  }

  private sessionOf(node: SimNode): SimNode {
    let n = node;
    while (n.kind !== 'session') n = n.parent!;
    return n;
  }

  private activity(): WatchEvent {
    const node = this.rng.pick(this.tree.live);
    return this.emit(
      'activity',
      node,
      this.rng.chance(0.5) ? { summary: this.rng.pick(words.SUMMARIES) } : {},
    );
  }

  /** A model call's tokens, now and then for a node that has ended (a late transcript line). */
  private usage(): WatchEvent {
    const r = this.rng;
    const ended = this.tree.ended;
    const node = ended.length > 0 && r.chance(0.1) ? r.pick(ended) : r.pick(this.tree.live);
    return this.emit('usage.reported', node, {
      model: r.pick(words.MODELS),
      input_tokens: r.int(1, 400),
      output_tokens: r.int(20, 4_000),
      cache_read_tokens: r.int(0, 120_000),
      cache_creation_tokens: r.chance(0.3) ? r.int(100, 20_000) : 0,
      message_id: `msg_${r.hex(24)}`,
    });
  }

  private lateActivity(): WatchEvent {
    return this.emit('activity', this.rng.pick(this.tree.ended), {});
  }

  private status(): WatchEvent {
    const node = this.rng.pick(this.tree.live);
    const state = this.rng.weighted({ working: 6, idle: 2, input_required: 1 });
    return this.emit('status', node, { state, summary: this.rng.pick(words.SUMMARIES) });
  }

  private spawn(): WatchEvent | null {
    const parents = this.tree.liveWhere(
      (n) => n.depth < MAX_DEPTH && n.liveChildren < MAX_LIVE_CHILDREN,
    );
    if (parents.length === 0) return null;
    const r = this.rng;
    const parent = r.pick(parents);
    const session = this.sessionOf(parent);
    const ref = this.newRef(() => `${session.ref}/agent-${r.hex(7)}`);
    const payload: Record<string, unknown> = {
      parent: parent.ref,
      agent_type: r.pick(words.AGENT_TYPES),
      purpose: r.pick(words.PURPOSES),
      background: r.chance(0.25),
    };
    if (r.chance(0.8)) payload.spawn_call_id = `toolu_${r.hex(24)}`;
    else payload.link_method = r.chance(0.5) ? 'explicit' : 'inferred';
    const requesters = this.tree.liveWhere((n) => n !== parent && this.sessionOf(n) === session);
    if (requesters.length > 0 && r.chance(0.1)) payload.requested_by = r.pick(requesters).ref;
    this.tree.add(ref, 'agent', parent, r.chance(0.7));
    return this.emit('agent.spawned', this.tree.nodes.get(ref)!, payload);
  }

  private subSession(): WatchEvent {
    return this.startSession(this.rng.pick(this.tree.live));
  }

  private tasks(): WatchEvent {
    const r = this.rng;
    const node = r.pick(this.tree.live);
    const tasks = node.tasks;
    const active = tasks.findIndex((t) => t.status === 'in_progress');
    if (tasks.length === 0 || r.chance(0.15)) {
      const id = node.taskIds ? String(tasks.length + 1) : undefined;
      tasks.push({
        ...(id ? { id } : {}),
        content: `${r.pick(words.TASKS)} (${tasks.length + 1})`,
        status: 'pending',
      });
    }
    if (active >= 0) tasks[active]!.status = 'completed';
    const nextPending = tasks.find((t) => t.status === 'pending');
    if (nextPending) nextPending.status = 'in_progress';
    const payload = tasks.map((t) =>
      t.status === 'in_progress' ? { ...t, active_form: `Working on: ${t.content}` } : { ...t },
    );
    return this.emit('tasks.updated', node, { tasks: payload });
  }

  private waitStart(): WatchEvent | null {
    const r = this.rng;
    const node = r.pick(this.tree.live);
    // A third of the time, wait on a node that already waits on this one: a deadlock cycle.
    const waiters = this.tree.liveWhere(
      (n) => n !== node && n.waitsOn.has(node.ref) && !node.waitsOn.has(n.ref),
    );
    const others = this.tree.liveWhere((n) => n !== node && !node.waitsOn.has(n.ref));
    const pool = waiters.length > 0 && r.chance(0.33) ? waiters : others;
    if (pool.length === 0) return null;
    const targets = new Set([r.pick(pool), r.pick(pool)].slice(0, r.int(1, 2)));
    for (const t of targets) node.waitsOn.add(t.ref);
    const payload: Record<string, unknown> = { on: [...targets].map((t) => t.ref) };
    if (r.chance(0.7)) payload.reason = r.pick(words.WAIT_REASONS);
    return this.emit('wait.started', node, payload);
  }

  private waitEnd(): WatchEvent {
    const node = this.rng.pick(this.tree.liveWhere((n) => n.waitsOn.size > 0));
    if (this.rng.chance(0.5)) {
      node.waitsOn.clear();
      return this.emit('wait.ended', node, {});
    }
    const on = this.rng.pick([...node.waitsOn]);
    node.waitsOn.delete(on);
    return this.emit('wait.ended', node, { on: [on] });
  }

  private message(): WatchEvent {
    const r = this.rng;
    const from = r.pick(this.tree.live);
    const to = r.pick(this.tree.liveWhere((n) => n !== from));
    const payload: Record<string, unknown> = { to: to.ref, text: r.pick(words.MESSAGES) };
    if (r.chance(0.5)) payload.message_id = `msg_${r.hex(12)}`;
    return this.emit('message.sent', from, payload);
  }

  private attention(): WatchEvent | null {
    const calm = this.tree.liveWhere((n) => !n.attention);
    if (calm.length === 0) return null;
    const node = this.rng.pick(calm);
    const reason = this.rng.pick<AttentionReason>(['permission', 'question', 'error']);
    node.attention = true;
    return this.emit('attention.raised', node, {
      reason,
      message: words.ATTENTION_MESSAGES[reason],
    });
  }

  private attentionClear(): WatchEvent {
    const node = this.rng.pick(this.tree.liveWhere((n) => n.attention));
    node.attention = false;
    return this.emit('attention.cleared', node, {});
  }

  private title(): WatchEvent | null {
    const sessions = this.tree.liveWhere((n) => n.kind === 'session');
    if (sessions.length === 0) return null;
    return this.emit('title', this.rng.pick(sessions), {
      title: this.rng.pick(words.SESSION_TITLES),
    });
  }

  /** Ends a leaf (children finish before their parents); sessions end more rarely than agents. */
  private end(): WatchEvent | null {
    const leaves = this.tree.liveWhere((n) => n.liveChildren === 0);
    const agents = leaves.filter((n) => n.kind === 'agent');
    const pool =
      agents.length > 0 && this.rng.chance(0.9)
        ? agents
        : leaves.filter((n) => n.kind === 'session');
    if (pool.length === 0 || (pool[0]!.kind === 'session' && this.rng.chance(0.7))) return null;
    const node = this.rng.pick(pool);
    const state = this.rng.weighted<EndState>({ completed: 17, failed: 2, canceled: 1 });
    this.tree.end(node);
    const payload = this.rng.chance(0.6)
      ? { state, summary: this.rng.pick(words.SUMMARIES) }
      : { state };
    return this.emit('ended', node, payload);
  }
}
