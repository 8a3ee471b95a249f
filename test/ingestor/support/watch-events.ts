import type { WatchEvent } from '@graph-history/domain';

export const T0 = 1_763_770_000_000;
const source = { provider: 'claude-code', provider_version: '2.0.14', adapter: 'test/1' };

/** A WatchEvent as a client sends it (unchecked, so tests can also build invalid ones). */
export function watchEvent(
  key: string,
  type: string,
  node: string,
  payload: Record<string, unknown> = {},
  created = T0,
): Record<string, unknown> {
  return { key, type, created, node, source, payload };
}

/**
 * A valid run of `count` events for one graph: a session, agents spawned under it, and status /
 * activity / tasks events on them. Keys are `<prefix>-<n>`; `created` grows by 10 ms per event.
 */
export function validRun(prefix: string, count: number): WatchEvent[] {
  const events: Record<string, unknown>[] = [];
  const at = (n: number) => T0 + n * 10;
  const session = `${prefix}-s`;
  events.push(
    watchEvent(`${prefix}-0`, 'session.started', session, { title: `run ${prefix}` }, at(0)),
  );
  const agents: string[] = [];
  for (let n = 1; n < count; n++) {
    const key = `${prefix}-${n}`;
    if (n % 10 === 1 && agents.length < 50) {
      const agent = `${session}/a${agents.length}`;
      const parent = agents.length > 0 && n % 20 === 1 ? agents[agents.length - 1]! : session;
      events.push(
        watchEvent(
          key,
          'agent.spawned',
          agent,
          { parent, agent_type: 'Explore', purpose: `step ${n}`, background: n % 30 === 1 },
          at(n),
        ),
      );
      agents.push(agent);
    } else if (n % 7 === 0 && agents.length > 0) {
      const tasks = [
        { content: `task ${n}`, status: 'completed' },
        { content: `task ${n + 1}`, status: n % 2 ? 'in_progress' : 'pending' },
      ];
      events.push(watchEvent(key, 'tasks.updated', agents[n % agents.length]!, { tasks }, at(n)));
    } else {
      const node = agents.length > 0 ? agents[n % agents.length]! : session;
      events.push(
        n % 3 === 0
          ? watchEvent(
              key,
              'status',
              node,
              { state: n % 2 ? 'working' : 'idle', summary: `did ${n}\nmore` },
              at(n),
            )
          : watchEvent(key, 'activity', node, {}, at(n)),
      );
    }
  }
  return events as unknown as WatchEvent[];
}

/**
 * A valid run of `count` events full of messages and waits: a session and two background agents,
 * then a0 messaging a1, waiting on it, and ending the wait, over and over.
 */
export function chattyRun(prefix: string, count: number): WatchEvent[] {
  const at = (n: number) => T0 + n * 10;
  const [s, a0, a1] = [`${prefix}-s`, `${prefix}-s/a0`, `${prefix}-s/a1`];
  const spawn = (n: number, agent: string) =>
    watchEvent(
      `${prefix}-${n}`,
      'agent.spawned',
      agent,
      { parent: s, agent_type: 'Explore', purpose: 'chat', background: true },
      at(n),
    );
  const events = [
    watchEvent(`${prefix}-0`, 'session.started', s, { title: prefix }, at(0)),
    spawn(1, a0),
    spawn(2, a1),
  ];
  for (let n = 3; n < count; n++) {
    const key = `${prefix}-${n}`;
    events.push(
      n % 3 === 0
        ? watchEvent(key, 'message.sent', a0, { to: a1, text: `hello ${n}` }, at(n))
        : n % 3 === 1
          ? watchEvent(key, 'wait.started', a0, { on: [a1], reason: 'reply' }, at(n))
          : watchEvent(key, 'wait.ended', a0, { on: [a1] }, at(n)),
    );
  }
  return events.slice(0, count) as unknown as WatchEvent[];
}
