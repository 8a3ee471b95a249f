import { Harness } from '../__tests__/harness';

/** S with three background agents a, b, c (nothing blocked yet). */
const setup = () => {
  const h = new Harness();
  h.apply('session.started', 'S', {});
  for (const r of ['a', 'b', 'c'])
    h.apply('agent.spawned', `S/${r}`, {
      parent: 'S',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
  return h;
};

describe('wait.started', () => {
  it('opens one wait per distinct ref and blocks the node', () => {
    const h = setup();
    h.now = 2_000;
    const applied = h.apply('wait.started', 'S', { on: ['S/b', 'S/a', 'S/b'], reason: 'tool' });
    expect(applied.waitsOpened.map((w) => [w.onNo, w.reason, w.started])).toEqual([
      [3, 'tool', 2_000],
      [2, 'tool', 2_000],
    ]);
    expect(h.pub('S').blocked).toEqual({
      on_ids: [h.id('S/a'), h.id('S/b')],
      starting: 2_000,
      node_count: 2,
      open_tasks: 0,
      cycle: false,
    });
    expect(applied.event.counts.blocked).toBe(1);
  });

  it('keeps a wait that is already open and the start of the blocked spell', () => {
    const h = setup();
    h.now = 2_000;
    h.apply('wait.started', 'S', { on: ['S/a'] });
    h.now = 3_000;
    const applied = h.apply('wait.started', 'S', { on: ['S/a', 'S/b'] });
    expect(applied.waitsOpened.map((w) => w.onNo)).toEqual([3]);
    expect(h.pub('S').blocked).toMatchObject({ starting: 2_000, node_count: 2 });
  });

  it('records a wait on a node that already ended as closed, without blocking', () => {
    const h = setup();
    h.apply('ended', 'S/a', { state: 'completed' });
    h.now = 2_000;
    const applied = h.apply('wait.started', 'S', { on: ['S/a'] });
    expect(applied.waitsOpened).toEqual([
      {
        nodeNo: 1,
        onNo: 2,
        startedSeq: 6,
        started: 2_000,
        reason: null,
        endedSeq: 6,
        ended: 2_000,
      },
    ]);
    expect(h.pub('S').blocked).toBeNull();
  });

  it('follows waits transitively and reports a deadlock as a cycle', () => {
    const h = setup();
    h.now = 2_000;
    h.apply('wait.started', 'S/a', { on: ['S/b'] });
    h.apply('wait.started', 'S/b', { on: ['S/c'] });
    h.apply('tasks.updated', 'S/c', { tasks: [{ content: 't', status: 'pending' }] });
    h.apply('tasks.updated', 'S/a', { tasks: [{ content: 't', status: 'pending' }] });
    expect(h.pub('S/a').blocked).toMatchObject({ node_count: 2, open_tasks: 1, cycle: false });
    h.now = 3_000;
    const applied = h.apply('wait.started', 'S/c', { on: ['S/a'] });
    expect(h.pub('S/a').blocked).toEqual({
      on_ids: [h.id('S/b')],
      starting: 2_000,
      node_count: 2,
      open_tasks: 1,
      cycle: true,
    });
    expect(h.pub('S/c').blocked).toEqual({
      on_ids: [h.id('S/a')],
      starting: 3_000,
      node_count: 2,
      open_tasks: 1,
      cycle: true,
    });
    expect(applied.event.changes.map((c) => c.node_id)).toEqual([
      h.id('S/c'),
      h.id('S/a'),
      h.id('S/b'),
    ]);
  });
});

describe('wait.ended', () => {
  it('closes the listed waits and ignores refs it was not waiting on', () => {
    const h = setup();
    h.apply('wait.started', 'S', { on: ['S/a', 'S/b'] });
    h.now = 2_000;
    const applied = h.apply('wait.ended', 'S', { on: ['S/a', 'S/c'] });
    expect(applied.waitsClosed).toEqual([
      { nodeNo: 1, onNo: 2, startedSeq: 5, endedSeq: 6, ended: 2_000 },
    ]);
    expect(h.pub('S').blocked).toMatchObject({ on_ids: [h.id('S/b')], starting: 1_000 });
  });

  it('closes every open wait when on is absent, unblocking the node', () => {
    const h = setup();
    h.apply('wait.started', 'S', { on: ['S/a', 'S/b'] });
    const applied = h.apply('wait.ended', 'S', {});
    expect(applied.waitsClosed.map((w) => w.onNo)).toEqual([2, 3]);
    expect(h.pub('S').blocked).toBeNull();
    expect(applied.event.counts.blocked).toBe(0);
    expect(applied.event.changes[0]!.fields.blocked!.to).toBeNull();
  });
});
