import { Harness } from '../__tests__/harness';

describe('session.started', () => {
  it('creates a working root session and lists its non-null fields as created', () => {
    const h = new Harness();
    const applied = h.apply('session.started', 'S', { title: 'Fix bug', cwd: '/repo' });
    const s = h.pub('S');
    expect(s).toMatchObject({
      kind: 'session',
      provider: 'claude-code',
      provider_ref: 'S',
      state: 'working',
      parent_id: null,
      root_id: s.id,
      session_id: s.id,
      requested_by_id: null,
      depth: 0,
      title: 'Fix bug',
      cwd: '/repo',
      agent_type: null,
      background: null,
      link_method: null,
      spawn_call_id: null,
      purpose: null,
      created: 1_000,
      last_event: 1_000,
      ended: null,
      blocked: null,
      task_counts: { total: 0, pending: 0, in_progress: 0, completed: 0, open: 0 },
    });
    expect(applied.event.changes).toEqual([
      {
        node_id: s.id,
        created: true,
        fields: {
          provider_ref: { from: null, to: 'S' },
          provider: { from: null, to: 'claude-code' },
          kind: { from: null, to: 'session' },
          root_id: { from: null, to: s.id },
          session_id: { from: null, to: s.id },
          depth: { from: null, to: 0 },
          state: { from: null, to: 'working' },
          title: { from: null, to: 'Fix bug' },
          cwd: { from: null, to: '/repo' },
          created: { from: null, to: 1_000 },
          last_event: { from: null, to: 1_000 },
          child_count: { from: null, to: 0 },
          descendant_count: { from: null, to: 0 },
          background_agent_count: { from: null, to: 0 },
          task_counts: {
            from: null,
            to: { total: 0, pending: 0, in_progress: 0, completed: 0, open: 0 },
          },
        },
      },
    ]);
    expect(applied.versions).toEqual([h.rec('S')]);
    expect(applied.event.counts).toMatchObject({ nodes: 1, sessions: 1, agents: 0, blocked: 0 });
    expect(applied.event.counts.by_state.working).toBe(1);
  });

  it('places a session started by another node under it, in its tree', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.apply('agent.spawned', 'S/a', {
      parent: 'S',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
    const applied = h.apply('session.started', 'T', { parent: 'S/a' });
    expect(h.pub('T')).toMatchObject({
      parent_id: h.id('S/a'),
      root_id: h.id('S'),
      session_id: h.id('T'),
      depth: 2,
    });
    expect(h.pub('S/a')).toMatchObject({ child_count: 1, descendant_count: 1 });
    expect(h.pub('S')).toMatchObject({ child_count: 1, descendant_count: 2 });
    expect(applied.event.changes.map((c) => c.node_id)).toEqual([
      h.id('T'),
      h.id('S'),
      h.id('S/a'),
    ]);
    expect(applied.event.counts).toMatchObject({ nodes: 3, sessions: 2, agents: 1 });
  });

  it('gives roots and children sort keys in tree order', () => {
    const h = new Harness();
    h.apply('session.started', 'A', {});
    h.apply('session.started', 'B', {});
    h.apply('agent.spawned', 'A/1', {
      parent: 'A',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
    h.apply('agent.spawned', 'A/1/1', {
      parent: 'A/1',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
    h.apply('agent.spawned', 'A/2', {
      parent: 'A',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
    expect(['A', 'B', 'A/1', 'A/1/1', 'A/2'].map((r) => h.rec(r).sortKey)).toEqual([
      '10',
      '11',
      '1010',
      '101010',
      '1011',
    ]);
  });
});

describe('agent.spawned', () => {
  const setup = () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.apply('agent.spawned', 'S/lead', {
      parent: 'S',
      agent_type: 'lead',
      purpose: 'lead',
      background: true,
    });
    return h;
  };

  it('creates a working agent in its parent session and defaults requested_by to the parent', () => {
    const h = setup();
    h.now = 2_000;
    const applied = h.apply('agent.spawned', 'S/a', {
      parent: 'S/lead',
      agent_type: 'Explore',
      purpose: 'find it',
      cwd: '/w',
    });
    expect(h.pub('S/a')).toMatchObject({
      kind: 'agent',
      state: 'working',
      parent_id: h.id('S/lead'),
      root_id: h.id('S'),
      session_id: h.id('S'),
      requested_by_id: h.id('S/lead'),
      depth: 2,
      agent_type: 'Explore',
      purpose: 'find it',
      background: false,
      link_method: 'explicit',
      spawn_call_id: null,
      cwd: '/w',
      title: null,
      created: 2_000,
    });
    expect(applied.spawn).toEqual({
      requesterNo: h.rec('S/lead').no,
      childNo: h.rec('S/a').no,
      seq: 3,
      spawnCallId: null,
      agentType: 'Explore',
      purpose: 'find it',
      background: false,
      created: 2_000,
    });
  });

  it('blocks the parent on a foreground child with a spawn wait', () => {
    const h = setup();
    h.now = 2_000;
    const applied = h.apply('agent.spawned', 'S/a', {
      parent: 'S/lead',
      agent_type: 'x',
      purpose: 'p',
    });
    const child = h.rec('S/a').no;
    const lead = h.rec('S/lead').no;
    expect(applied.waitsOpened).toEqual([
      {
        nodeNo: lead,
        onNo: child,
        startedSeq: 3,
        started: 2_000,
        reason: 'spawn',
        endedSeq: null,
        ended: null,
      },
    ]);
    expect(h.pub('S/lead').blocked).toEqual({
      on_ids: [h.id('S/a')],
      starting: 2_000,
      node_count: 1,
      open_tasks: 0,
      cycle: false,
    });
    expect(applied.event.changes.map((c) => c.node_id)).toEqual([
      h.id('S/a'),
      h.id('S'),
      h.id('S/lead'),
    ]);
    expect(applied.event.changes[2]!.fields).toEqual({
      child_count: { from: 0, to: 1 },
      descendant_count: { from: 0, to: 1 },
      blocked: { from: null, to: h.pub('S/lead').blocked },
    });
    expect(applied.event.counts.blocked).toBe(1);
  });

  it('counts a background child for every ancestor and opens no wait', () => {
    const h = setup();
    const applied = h.apply('agent.spawned', 'S/bg', {
      parent: 'S/lead',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
    expect(applied.waitsOpened).toEqual([]);
    expect(h.pub('S/lead')).toMatchObject({ blocked: null, background_agent_count: 1 });
    expect(h.pub('S')).toMatchObject({ background_agent_count: 2, descendant_count: 2 });
  });

  it('takes requested_by, spawn_call_id and link_method from the payload', () => {
    const h = setup();
    h.apply('agent.spawned', 'S/a', {
      parent: 'S',
      agent_type: 'x',
      purpose: 'p',
      background: true,
      requested_by: 'S/lead',
      spawn_call_id: 'toolu_1',
    });
    h.apply('agent.spawned', 'S/b', {
      parent: 'S',
      agent_type: 'x',
      purpose: 'p',
      background: true,
      link_method: 'inferred',
    });
    expect(h.pub('S/a')).toMatchObject({
      requested_by_id: h.id('S/lead'),
      spawn_call_id: 'toolu_1',
      link_method: 'spawn_call_id',
    });
    expect(h.pub('S/b').link_method).toBe('inferred');
    expect(h.rec('S/a').sortKey < h.rec('S/b').sortKey).toBe(true);
  });
});
