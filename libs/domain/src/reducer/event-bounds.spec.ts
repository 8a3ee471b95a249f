import { Harness, SOURCE } from '../__tests__/harness';
import { payloadText } from '../payload-text';
import { LIMITS, parseWatchEvent } from '../watch-event';
import { stateRefView } from './apply-event';
import { RefView } from './ref-checks';
import { validateBatch } from './validate-batch';

const NOW = 10_000;
const raw = (type: string, node: string, payload: Record<string, unknown>) => ({
  key: `${type}:${node}`,
  type,
  created: 1_000,
  node,
  source: SOURCE,
  payload,
});
const spawn = (parent: string, node: string) =>
  raw('agent.spawned', node, { parent, agent_type: 'x', purpose: 'p' });

/** `S` then a chain of agents, each under the previous one: the last is at depth `depth`. */
const chain = (depth: number) => [
  raw('session.started', 'S', {}),
  ...Array.from({ length: depth }, (_, i) => spawn(i === 0 ? 'S' : `S/${i}`, `S/${i + 1}`)),
];
const none: RefView = { get: () => undefined };

describe('depth of a tree', () => {
  it('accepts a chain down to the deepest level and refuses one more, naming payload.parent', () => {
    const deepest = validateBatch(none, chain(LIMITS.treeDepth), NOW);
    expect(deepest.ok).toBe(true);
    if (deepest.ok) expect(deepest.refs.get(`S/${LIMITS.treeDepth}`)?.depth).toBe(LIMITS.treeDepth);

    const deeper = validateBatch(none, chain(LIMITS.treeDepth + 1), NOW);
    expect(deeper).toMatchObject({
      ok: false,
      index: LIMITS.treeDepth + 1,
      rejection: { param: 'payload.parent' },
    });
    if (!deeper.ok) expect(deeper.rejection.message).toMatch(/depth 32.*nearer the root/);
  });

  it('counts a sub-session under a node one level deeper, and judges stored refs by their depth', () => {
    const stored: RefView = {
      get: (ref) => (ref === 'D' ? { ended: false, sessionRef: 'D', depth: 31 } : undefined),
    };
    const result = validateBatch(
      stored,
      [raw('session.started', 'E', { parent: 'D' }), spawn('E', 'E/a')],
      NOW,
    );
    expect(result).toMatchObject({ ok: false, index: 1, rejection: { param: 'payload.parent' } });
  });

  it('lets ingest accept creates under refs of unknown depth (stored before depths were kept)', () => {
    const legacy: RefView = {
      get: (ref) => (ref === 'L' ? { ended: false, sessionRef: 'L', depth: null } : undefined),
    };
    const result = validateBatch(legacy, [spawn('L', 'L/a'), spawn('L/a', 'L/b')], NOW);
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(result.refs.get('L/b')).toEqual({ ended: false, sessionRef: 'L', depth: null });
  });

  it('makes the reducer refuse what ingest refuses, state untouched', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    for (let i = 1; i <= LIMITS.treeDepth; i++)
      h.apply('agent.spawned', `S/${i}`, {
        parent: i === 1 ? 'S' : `S/${i - 1}`,
        agent_type: 'x',
        purpose: 'p',
      });
    expect(h.rec(`S/${LIMITS.treeDepth}`).depth).toBe(LIMITS.treeDepth);
    expect(stateRefView(h.state).get(`S/${LIMITS.treeDepth}`)?.depth).toBe(LIMITS.treeDepth);
    const rejection = h.reject('agent.spawned', 'S/x', {
      parent: `S/${LIMITS.treeDepth}`,
      agent_type: 'x',
      purpose: 'p',
    });
    expect(rejection.param).toBe('payload.parent');
    expect(h.reject('session.started', 'T', { parent: `S/${LIMITS.treeDepth}` }).param).toBe(
      'payload.parent',
    );
  });

  it('bounds the rows of a spawn by the depth: one version per ancestor and the new node', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    let last = h.apply('agent.spawned', 'S/1', { parent: 'S', agent_type: 'x', purpose: 'p' });
    for (let i = 2; i <= LIMITS.treeDepth; i++)
      last = h.apply('agent.spawned', `S/${i}`, {
        parent: `S/${i - 1}`,
        agent_type: 'x',
        purpose: 'p',
        background: true,
      });
    expect(last.versions).toHaveLength(LIMITS.treeDepth + 1);
  });
});

describe('text of one payload', () => {
  const tasks = (n: number, chars: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `t${i}`,
      content: 'c'.repeat(chars),
      status: 'pending',
    }));

  it('counts every string and field name', () => {
    expect(payloadText({ tasks: [{ content: 'abc', status: 'pending' }] })).toBe(
      'tasks'.length + 'content'.length + 3 + 'status'.length + 'pending'.length,
    );
    expect(payloadText({ background: true, n: 5 })).toBe('background'.length + 1 + 1 + 1);
  });

  it('refuses a payload over the limit with param payload, and accepts one just under it', () => {
    // 3.9 MB of tasks, as a hostile tenant sent (1,000 tasks of 3,900 characters)
    const huge = parseWatchEvent(raw('tasks.updated', 'S', { tasks: tasks(1_000, 3_900) }));
    expect(huge).toMatchObject({ ok: false, rejection: { param: 'payload' } });
    if (!huge.ok) expect(huge.rejection.message).toMatch(/at most 100000/);

    const fits = { tasks: tasks(40, 2_000) };
    expect(payloadText(fits)).toBeLessThanOrEqual(LIMITS.payloadText);
    expect(parseWatchEvent(raw('tasks.updated', 'S', fits)).ok).toBe(true);
    const over = { summary: 's'.repeat(LIMITS.text) };
    expect(parseWatchEvent(raw('status', 'S', { state: 'idle', ...over })).ok).toBe(true);
  });

  it('refuses it in a batch at the event that carries it', () => {
    const result = validateBatch(
      none,
      [raw('session.started', 'S', {}), raw('tasks.updated', 'S', { tasks: tasks(100, 2_000) })],
      NOW,
    );
    expect(result).toMatchObject({ ok: false, index: 1, rejection: { param: 'payload' } });
  });
});

describe('open waits of a graph', () => {
  it(`takes at most ${LIMITS.refsPerWait} refs in one wait event`, () => {
    const on = (n: number) => Array.from({ length: n }, (_, i) => `S/${i}`);
    expect(parseWatchEvent(raw('wait.started', 'S', { on: on(LIMITS.refsPerWait) })).ok).toBe(true);
    expect(
      parseWatchEvent(raw('wait.started', 'S', { on: on(LIMITS.refsPerWait + 1) })),
    ).toMatchObject({ ok: false, rejection: { param: 'payload.on' } });
    expect(
      parseWatchEvent(raw('wait.ended', 'S', { on: on(LIMITS.refsPerWait + 1) })),
    ).toMatchObject({
      ok: false,
      rejection: { param: 'payload.on' },
    });
  });

  /** `S` with `n` agents `S/0`… (background, so they open no waits) and a hub `S/hub`. */
  function graphOf(n: number): Harness {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    const agent = (ref: string) =>
      h.apply('agent.spawned', ref, {
        parent: 'S',
        agent_type: 'x',
        purpose: 'p',
        background: true,
      });
    agent('S/hub');
    for (let i = 0; i < n; i++) agent(`S/${i}`);
    return h;
  }

  it(`opens at most ${LIMITS.openWaits}; a wait beyond them is not opened, the event applies`, () => {
    const h = graphOf(LIMITS.openWaits + 1);
    for (let i = 0; i < LIMITS.openWaits; i++) h.apply('wait.started', `S/${i}`, { on: ['S/hub'] });
    expect(h.state.openWaitCount).toBe(LIMITS.openWaits);
    const beyond = h.apply('wait.started', `S/${LIMITS.openWaits}`, { on: ['S/hub'] });
    expect(beyond.waitsOpened).toEqual([]);
    expect(h.rec(`S/${LIMITS.openWaits}`).blocked).toBeNull();
    expect(h.state.openWaitCount).toBe(LIMITS.openWaits);

    // one event on the hub recounts every node waiting on it: as many as there are open waits
    const tasks = h.apply('tasks.updated', 'S/hub', {
      tasks: [{ content: 'c', status: 'pending' }],
    });
    expect(tasks.versions).toHaveLength(1 + LIMITS.openWaits);
    expect(h.rec('S/0').blocked).toMatchObject({ openTasks: 1, nodeCount: 1 });

    // ending the hub closes them all; then a wait opens again
    const ended = h.apply('ended', 'S/hub', { state: 'completed' });
    expect(ended.waitsClosed).toHaveLength(LIMITS.openWaits);
    expect(h.state.openWaitCount).toBe(0);
    const again = h.apply('wait.started', `S/${LIMITS.openWaits}`, { on: ['S/0'] });
    expect(again.waitsOpened).toHaveLength(1);
    expect(h.state.openWaitCount).toBe(1);
  });

  it('bounds a chain of waits: an event at its end recounts at most the open waits', () => {
    const h = graphOf(LIMITS.openWaits + 10);
    for (let i = 0; i < LIMITS.openWaits + 9; i++)
      h.apply('wait.started', `S/${i}`, { on: [`S/${i + 1}`] });
    expect(h.state.openWaitCount).toBe(LIMITS.openWaits);
    const last = `S/${LIMITS.openWaits}`;
    const applied = h.apply('tasks.updated', last, {
      tasks: [{ content: 'c', status: 'pending' }],
    });
    expect(applied.versions.length).toBeLessThanOrEqual(1 + LIMITS.openWaits);
    expect(h.rec('S/0').blocked).toMatchObject({ nodeCount: LIMITS.openWaits, openTasks: 1 });
  });
});
