/** A WatchEvent as a client sends it (plain JSON; tests also build invalid ones). */
export interface WatchEventJson {
  key: string;
  type: string;
  created: number;
  node: string;
  source: { provider: string; provider_version: string; adapter: string };
  payload: Record<string, unknown>;
}

export const SOURCE = {
  provider: 'claude-code',
  provider_version: '2.0.14',
  adapter: 'conformance/1',
};

let counter = 0;

/** Builds valid WatchEvent runs: keys unique in the process, `created` advancing by `step` ms. */
export class WatchScript {
  readonly events: WatchEventJson[] = [];

  constructor(
    public time = 1_763_770_000_000,
    private readonly step = 1_000,
  ) {}

  event(type: string, node: string, payload: Record<string, unknown> = {}): this {
    this.events.push({
      key: `conf-${process.pid}-${++counter}`,
      type,
      created: this.time,
      node,
      source: SOURCE,
      payload,
    });
    this.time += this.step;
    return this;
  }

  session(ref: string, payload: Record<string, unknown> = {}): this {
    return this.event('session.started', ref, payload);
  }

  /** An agent spawned under `parent` (background unless told otherwise). */
  agent(ref: string, parent: string, payload: Record<string, unknown> = {}): this {
    return this.event('agent.spawned', ref, {
      parent,
      agent_type: 'general',
      purpose: `work of ${ref}`,
      background: true,
      ...payload,
    });
  }

  status(ref: string, state: string, summary?: string): this {
    return this.event('status', ref, summary === undefined ? { state } : { state, summary });
  }

  activity(ref: string, summary?: string): this {
    return this.event('activity', ref, summary === undefined ? {} : { summary });
  }

  ended(ref: string, state = 'completed'): this {
    return this.event('ended', ref, { state });
  }

  /** Takes the events built so far (for sending them in separate requests). */
  take(): WatchEventJson[] {
    return this.events.splice(0, this.events.length);
  }
}
