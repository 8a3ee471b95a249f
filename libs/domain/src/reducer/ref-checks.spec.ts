import { Harness } from '../__tests__/harness';
import { Rejection, WatchEvent } from '../watch-event';
import { checkRefs, RefView } from './ref-checks';

/** S (running) with agent S/a (running) and S/done (ended). */
const setup = () => {
  const h = new Harness();
  h.apply('session.started', 'S', {});
  h.apply('agent.spawned', 'S/a', { parent: 'S', agent_type: 'x', purpose: 'p', background: true });
  h.apply('agent.spawned', 'S/done', {
    parent: 'S',
    agent_type: 'x',
    purpose: 'p',
    background: true,
  });
  h.apply('ended', 'S/done', { state: 'completed' });
  return h;
};

const spawn = (parent: string, extra: Record<string, unknown> = {}) => ({
  parent,
  agent_type: 'x',
  purpose: 'p',
  ...extra,
});

describe('rejections (applyEvent throws and leaves the state untouched)', () => {
  it('an event for an unknown node', () => {
    const h = setup();
    const rejections = [
      h.reject('status', 'ghost', { state: 'idle' }),
      h.reject('activity', 'ghost', {}),
      h.reject('ended', 'ghost', { state: 'completed' }),
    ];
    for (const r of rejections) {
      expect(r).toEqual({
        param: 'node',
        message:
          'No node has ref "ghost" in this graph; send its session.started or agent.spawned event first.',
      });
    }
  });

  it('a create for a ref that exists', () => {
    const h = setup();
    expect(h.reject('session.started', 'S/a', {}).param).toBe('node');
    expect(h.reject('agent.spawned', 'S', spawn('S')).message).toMatch(
      /already exists; use a new ref/,
    );
  });

  it('agent.spawned whose parent is unknown or has ended', () => {
    const h = setup();
    expect(h.reject('agent.spawned', 'S/n', spawn('ghost')).param).toBe('payload.parent');
    expect(h.reject('agent.spawned', 'S/n', spawn('S/done'))).toEqual({
      param: 'payload.parent',
      message:
        'Node "S/done" has ended and cannot get new children; name a parent that is still running.',
    });
  });

  it('session.started whose parent is unknown or has ended', () => {
    const h = setup();
    expect(h.reject('session.started', 'T', { parent: 'ghost' }).param).toBe('payload.parent');
    expect(h.reject('session.started', 'T', { parent: 'S/done' }).param).toBe('payload.parent');
  });

  it('agent.spawned whose requested_by is unknown', () => {
    expect(
      setup().reject('agent.spawned', 'S/n', spawn('S', { requested_by: 'ghost' })).param,
    ).toBe('payload.requested_by');
  });

  const onEndedNode: [string, (h: Harness) => Rejection][] = [
    ['status', (h) => h.reject('status', 'S/done', { state: 'idle' })],
    ['title', (h) => h.reject('title', 'S/done', { title: 't' })],
    ['tasks.updated', (h) => h.reject('tasks.updated', 'S/done', { tasks: [] })],
    ['wait.started', (h) => h.reject('wait.started', 'S/done', { on: ['S'] })],
    ['wait.ended', (h) => h.reject('wait.ended', 'S/done', {})],
    ['message.sent', (h) => h.reject('message.sent', 'S/done', { to: 'S' })],
    ['attention.raised', (h) => h.reject('attention.raised', 'S/done', { reason: 'error' })],
    ['attention.cleared', (h) => h.reject('attention.cleared', 'S/done', {})],
    ['ended', (h) => h.reject('ended', 'S/done', { state: 'failed' })],
  ];
  it.each(onEndedNode)('%s on a node that has ended', (_type, send) => {
    expect(send(setup())).toEqual({
      param: 'node',
      message:
        'Node "S/done" has ended and accepts only activity and usage.reported events now; send no other event after its ended event.',
    });
  });

  it('message.sent to an unknown ref', () => {
    expect(setup().reject('message.sent', 'S', { to: 'ghost' }).param).toBe('payload.to');
  });

  it('wait.started or wait.ended naming an unknown ref, by its index', () => {
    const h = setup();
    expect(h.reject('wait.started', 'S', { on: ['S/a', 'ghost'] }).param).toBe('payload.on[1]');
    expect(h.reject('wait.ended', 'S', { on: ['ghost'] }).param).toBe('payload.on[0]');
  });

  it('a node waiting on itself', () => {
    expect(setup().reject('wait.started', 'S/a', { on: ['S', 'S/a'] })).toEqual({
      param: 'payload.on[1]',
      message: 'A node cannot wait on itself; remove its own ref from payload.on.',
    });
  });

  it('two tasks with the same id', () => {
    const r = setup().reject('tasks.updated', 'S', {
      tasks: [
        { id: 'a', content: 'x', status: 'pending' },
        { content: 'y', status: 'pending' },
        { id: 'a', content: 'z', status: 'pending' },
      ],
    });
    expect(r.param).toBe('payload.tasks[2].id');
  });

  it('allows waiting on or messaging a node that has ended, and naming oneself in wait.ended', () => {
    const h = setup();
    expect(() => h.apply('wait.started', 'S', { on: ['S/done'] })).not.toThrow();
    expect(() => h.apply('message.sent', 'S', { to: 'S/done' })).not.toThrow();
    expect(() => h.apply('wait.ended', 'S', { on: ['S'] })).not.toThrow();
  });
});

describe('checkRefs', () => {
  it('decides from a bare RefView, without a graph state', () => {
    const view: RefView = {
      get: (ref) =>
        ref === 'S'
          ? { ended: false, sessionRef: 'S' }
          : ref === 'E'
            ? { ended: true, sessionRef: 'E' }
            : undefined,
    };
    const h = new Harness();
    expect(checkRefs(view, h.event('agent.spawned', 'S/x', spawn('S')) as WatchEvent)).toBeNull();
    expect(checkRefs(view, h.event('agent.spawned', 'S/x', spawn('E')) as WatchEvent)?.param).toBe(
      'payload.parent',
    );
    expect(checkRefs(view, h.event('activity', 'E', {}) as WatchEvent)).toBeNull();
    expect(checkRefs(view, h.event('title', 'E', { title: 'x' }) as WatchEvent)?.param).toBe(
      'node',
    );
  });

  it("refuses an agent whose ref does not extend its session's ref with / and a suffix", () => {
    const view: RefView = {
      get: (ref) =>
        ref === 'S'
          ? { ended: false, sessionRef: 'S' }
          : ref === 'S/a'
            ? { ended: false, sessionRef: 'S' }
            : undefined,
    };
    const h = new Harness();
    const spawnAs = (node: string, parent: string) =>
      checkRefs(view, h.event('agent.spawned', node, spawn(parent)) as WatchEvent);
    for (const bad of ['Sx', 'S/', 'T/x', 'x', 'S/a'.slice(0, 2)]) {
      expect({ bad, param: spawnAs(bad, 'S')?.param }).toEqual({ bad, param: 'node' });
    }
    expect(spawnAs('S/b', 'S')).toBeNull();
    expect(spawnAs('S/a/b', 'S/a')).toBeNull();
    expect(spawnAs('S/c', 'S/a')).toBeNull();
    expect(spawnAs('S/a-x', 'S/a')).toBeNull();
    const legacy: RefView = {
      get: (ref) => (ref === 'S' ? { ended: false, sessionRef: null } : undefined),
    };
    expect(
      checkRefs(legacy, h.event('agent.spawned', 'anything', spawn('S')) as WatchEvent),
    ).toBeNull();
  });
});
