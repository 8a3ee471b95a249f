import type { WatchEvent } from '@graph-history/domain';

const SOURCE = { provider: 'claude-code', provider_version: '2.0.14', adapter: 'test/1' };

/** Builds valid WatchEvent sequences for tests: unique keys, `created` advancing by `step` ms. */
export class EventScript {
  /** Keys are unique across scripts, so appending to a seeded graph never repeats one. */
  private static n = 0;
  readonly events: WatchEvent[] = [];

  constructor(
    public time = 1_700_000_000_000,
    private readonly step = 1_000,
  ) {}

  private add(type: WatchEvent['type'], node: string, payload: object): this {
    this.events.push({
      key: `k${++EventScript.n}`,
      type,
      created: this.time,
      node,
      source: SOURCE,
      payload,
    } as WatchEvent);
    this.time += this.step;
    return this;
  }

  session(ref: string, payload: { title?: string; cwd?: string; parent?: string } = {}): this {
    return this.add('session.started', ref, payload);
  }

  agent(
    ref: string,
    parent: string,
    payload: {
      background?: boolean;
      purpose?: string;
      requested_by?: string;
      spawn_call_id?: string;
    } = {},
  ): this {
    return this.add('agent.spawned', ref, {
      agent_type: 'general',
      purpose: `work of ${ref}`,
      parent,
      background: true,
      ...payload,
    });
  }

  status(ref: string, state: string, summary?: string): this {
    return this.add('status', ref, summary === undefined ? { state } : { state, summary });
  }

  activity(ref: string): this {
    return this.add('activity', ref, {});
  }

  tasks(ref: string, tasks: { id?: string; content: string; status: string }[]): this {
    return this.add('tasks.updated', ref, { tasks });
  }

  waitStarted(ref: string, on: string[], reason?: string): this {
    return this.add('wait.started', ref, reason === undefined ? { on } : { on, reason });
  }

  waitEnded(ref: string, on?: string[]): this {
    return this.add('wait.ended', ref, on ? { on } : {});
  }

  message(from: string, to: string, text: string): this {
    return this.add('message.sent', from, { to, text });
  }

  attention(ref: string, reason: string, message?: string): this {
    return this.add(
      'attention.raised',
      ref,
      message === undefined ? { reason } : { reason, message },
    );
  }

  /** A `usage.reported` of `model` with the given counts (cache counts default to 0). */
  usage(
    ref: string,
    model: string,
    tokens: { input: number; output: number; cacheRead?: number; cacheWrite?: number },
  ): this {
    return this.add('usage.reported', ref, {
      model,
      input_tokens: tokens.input,
      output_tokens: tokens.output,
      cache_read_tokens: tokens.cacheRead ?? 0,
      cache_creation_tokens: tokens.cacheWrite ?? 0,
    });
  }

  ended(ref: string, state = 'completed'): this {
    return this.add('ended', ref, { state });
  }

  /** A session with `n` background agents directly under `parent` (default: the session). */
  fanOut(session: string, n: number, parent = session, prefix = 'a'): this {
    for (let i = 0; i < n; i++) this.agent(`${session}/${prefix}${i}`, parent);
    return this;
  }
}
