import fc from 'fast-check';
import { END_STATES, NODE_STATES, TASK_STATUSES } from '../node';
import { SOURCE } from './harness';
import { NaiveOracle } from './naive-oracle';

/** Random choices for one event; the generator turns them into an event against the current refs. */
export interface Step {
  kind: number;
  a: number;
  b: number;
  c: number;
  flag: boolean;
  dt: number;
  invalid: number;
  newBatch: boolean;
}

export const stepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.nat(21),
  a: fc.nat(1_000),
  b: fc.nat(1_000),
  c: fc.nat(1_000),
  flag: fc.boolean(),
  dt: fc.integer({ min: -20, max: 60_000 }),
  invalid: fc.nat(99),
  newBatch: fc.boolean(),
});

export interface GeneratedEvent {
  raw: Record<string, unknown>;
  /** The generator meant the event to be refused. */
  invalid: boolean;
}

interface GenNode {
  ref: string;
  session: string;
  ended: boolean;
}

const pick = <T>(list: T[], n: number): T => list[n % list.length]!;

/** A model with a dated name, one without a date, and one the price table does not know. */
const USAGE_MODELS = ['claude-sonnet-4-5-20250929', 'gpt-5-codex', 'mystery-model-1'];

/** Builds raw WatchEvents, mostly valid, from the refs known so far (accepted + earlier in the batch). */
export class EventGenerator {
  private nodes: GenNode[] = [];
  private now = 1_700_000_000_000;
  private counter = 0;

  /** Forgets refs of refused events: takes the refs the oracle accepted. */
  resync(oracle: NaiveOracle): void {
    const sessionOf = (no: number): string => {
      const node = oracle.node(no);
      return node.kind === 'session' ? node.ref : sessionOf(node.parent!);
    };
    this.nodes = oracle.nodes.map((n) => ({
      ref: n.ref,
      session: sessionOf(n.no),
      ended: n.ended,
    }));
  }

  next(step: Step): GeneratedEvent {
    this.now = Math.max(0, this.now + step.dt);
    if (step.invalid < 8) return { raw: this.invalidEvent(step), invalid: true };
    return { raw: this.validEvent(step), invalid: false };
  }

  private raw(
    type: string,
    node: string,
    payload: Record<string, unknown>,
  ): Record<string, unknown> {
    return { key: `e${++this.counter}`, type, created: this.now, node, source: SOURCE, payload };
  }

  private running(): GenNode[] {
    return this.nodes.filter((n) => !n.ended);
  }

  private newSession(parent: GenNode | undefined): Record<string, unknown> {
    const ref = `s${++this.counter}`;
    this.nodes.push({ ref, session: ref, ended: false });
    return this.raw(
      'session.started',
      ref,
      parent ? { parent: parent.ref, title: `T ${ref}` } : { cwd: '/w' },
    );
  }

  private validEvent(s: Step): Record<string, unknown> {
    const running = this.running();
    const all = this.nodes;
    if (running.length === 0 || s.kind < 2)
      return this.newSession(s.flag && running.length ? pick(running, s.a) : undefined);
    const node = s.a % 2 ? pick(running, s.a) : running[running.length - 1]!;
    const other = pick(all, s.b);
    switch (s.kind) {
      case 2:
      case 3:
      case 4: {
        const ref = `${node.session}/a${++this.counter}`;
        this.nodes.push({ ref, session: node.session, ended: false });
        const payload: Record<string, unknown> = {
          parent: node.ref,
          agent_type: 'general',
          purpose: `p${s.c}`,
          background: s.flag,
        };
        if (s.c % 3 === 0) payload.requested_by = other.ref;
        if (s.c % 4 === 0) payload.spawn_call_id = `call_${s.c}`;
        return this.raw('agent.spawned', ref, payload);
      }
      case 5:
      case 6:
        return this.raw('status', node.ref, {
          state: pick([...NODE_STATES], s.b),
          ...(s.flag ? { summary: `sum ${s.c}\nmore` } : {}),
        });
      case 7:
        return this.raw('activity', pick(all, s.a).ref, s.flag ? { summary: `act ${s.c}` } : {});
      case 8:
        return this.raw('title', node.ref, { title: `title ${s.c}` });
      case 9:
      case 10: {
        const tasks = Array.from({ length: s.b % 5 }, (_, i) => ({
          ...(s.flag && i % 2 === 0 ? { id: `t${(s.c + i) % 4}${i}` } : {}),
          content: `task ${(s.c >> i) % 3}`,
          status: pick([...TASK_STATUSES], s.c + i * 7),
        }));
        return this.raw('tasks.updated', node.ref, { tasks });
      }
      case 11:
      case 12:
      case 13: {
        const targets = [s.b, s.c, s.b + s.c]
          .slice(0, 1 + (s.c % 3))
          .map((n) => pick(all, n).ref)
          .filter((r) => r !== node.ref);
        if (targets.length === 0) return this.raw('activity', node.ref, {});
        return this.raw('wait.started', node.ref, {
          on: targets,
          ...(s.flag ? { reason: 'tool' } : {}),
        });
      }
      case 14:
        return this.raw('wait.ended', node.ref, s.flag ? {} : { on: [other.ref] });
      case 15:
        return this.raw('message.sent', node.ref, {
          to: other.ref,
          ...(s.flag ? { text: 'x'.repeat(s.c * 3) } : {}),
        });
      case 16:
        return this.raw('attention.raised', node.ref, {
          reason: pick(['permission', 'question', 'error'], s.b),
        });
      case 17:
        return this.raw('attention.cleared', node.ref, {});
      case 18:
      case 19:
        return this.raw('usage.reported', pick(all, s.a).ref, {
          model: pick(USAGE_MODELS, s.b),
          input_tokens: s.c % 5 === 0 ? 0 : s.c * 7,
          output_tokens: s.b % 5 === 0 ? 0 : s.b * 3,
          ...(s.flag ? { cache_read_tokens: s.c * 101, cache_creation_tokens: s.b * 13 } : {}),
          ...(s.a % 3 === 0 ? { message_id: `msg_${s.a}` } : {}),
        });
      default:
        node.ended = true;
        return this.raw('ended', node.ref, { state: pick([...END_STATES], s.b) });
    }
  }

  private invalidEvent(s: Step): Record<string, unknown> {
    const all = this.nodes;
    const ended = all.filter((n) => n.ended);
    const running = this.running();
    const ghost = `ghost${s.c}`;
    if (all.length === 0 || running.length === 0)
      return this.raw('status', ghost, { state: 'idle' });
    const node = pick(running, s.a);
    switch (s.c % 12) {
      case 0:
        return this.raw('status', ghost, { state: 'idle' });
      case 1:
        return this.raw(
          s.flag ? 'session.started' : 'agent.spawned',
          pick(all, s.b).ref,
          s.flag ? {} : { parent: node.ref, agent_type: 'x', purpose: 'y' },
        );
      case 2:
        return ended.length
          ? this.raw('title', pick(ended, s.b).ref, { title: 't' })
          : this.raw('title', ghost, { title: 't' });
      case 3:
        return this.raw('agent.spawned', `${node.session}/new${s.b}`, {
          parent: ghost,
          agent_type: 'x',
          purpose: 'y',
        });
      case 4:
        return ended.length
          ? this.raw('session.started', `fresh${s.b}`, { parent: pick(ended, s.b).ref })
          : this.raw('session.started', `fresh${s.b}`, { parent: ghost });
      case 5:
        return this.raw('agent.spawned', `${node.session}/new${s.b}`, {
          parent: node.ref,
          agent_type: 'x',
          purpose: 'y',
          requested_by: ghost,
        });
      case 6:
        return this.raw('message.sent', node.ref, { to: ghost });
      case 7:
        return this.raw('wait.started', node.ref, { on: [pick(all, s.b).ref, node.ref] });
      case 8:
        return this.raw(s.flag ? 'wait.started' : 'wait.ended', node.ref, {
          on: [pick(all, s.b).ref, ghost],
        });
      case 9:
        return this.raw('tasks.updated', node.ref, {
          tasks: [
            { id: 'd', content: 'a', status: 'pending' },
            { id: 'd', content: 'b', status: 'completed' },
          ],
        });
      case 10:
        return this.raw('bogus.type', node.ref, {});
      default:
        return this.raw('status', node.ref, { state: 'sleeping' });
    }
  }
}
