import { Harness } from '../__tests__/harness';

describe('ended', () => {
  it('ends the node, closes its waits and the waits on it, and unblocks its waiters', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.apply('agent.spawned', 'S/a', { parent: 'S', agent_type: 'x', purpose: 'p' });
    h.apply('agent.spawned', 'S/b', {
      parent: 'S',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
    h.apply('wait.started', 'S/a', { on: ['S/b'] });
    h.apply('attention.raised', 'S/a', { reason: 'question' });
    h.now = 5_000;
    const applied = h.apply('ended', 'S/a', { state: 'failed', summary: 'Gave up\ndetails' });
    expect(h.pub('S/a')).toMatchObject({
      ended: 5_000,
      state: 'failed',
      summary: 'Gave up\ndetails',
      headline: 'Gave up',
      attention: null,
      blocked: null,
    });
    expect(h.pub('S').blocked).toBeNull();
    expect(applied.waitsClosed).toEqual([
      { nodeNo: 2, onNo: 3, startedSeq: 4, endedSeq: 6, ended: 5_000 },
      { nodeNo: 1, onNo: 2, startedSeq: 2, endedSeq: 6, ended: 5_000 },
    ]);
    expect(applied.event.counts).toMatchObject({ blocked: 0, by_state: { working: 2, failed: 1 } });
    expect(applied.event.changes.map((c) => c.node_id)).toEqual([h.id('S/a'), h.id('S')]);
  });

  it('keeps a waiter blocked on its other unfinished nodes', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.apply('agent.spawned', 'S/a', { parent: 'S', agent_type: 'x', purpose: 'p' });
    h.apply('agent.spawned', 'S/b', { parent: 'S', agent_type: 'x', purpose: 'p' });
    h.apply('ended', 'S/a', { state: 'completed' });
    expect(h.pub('S').blocked).toEqual({
      on_ids: [h.id('S/b')],
      starting: 1_000,
      node_count: 1,
      open_tasks: 0,
      cycle: false,
    });
  });

  it('stops counting a finished background agent for its ancestors', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.apply('agent.spawned', 'S/a', {
      parent: 'S',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
    h.apply('agent.spawned', 'S/b', {
      parent: 'S/a',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
    expect(h.pub('S').background_agent_count).toBe(2);
    h.apply('ended', 'S/b', { state: 'canceled' });
    expect(h.pub('S').background_agent_count).toBe(1);
    expect(h.pub('S/a').background_agent_count).toBe(0);
    expect(h.pub('S').descendant_count).toBe(2);
  });
});

describe('message.sent', () => {
  it('records the message and marks only the sender alive', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.apply('agent.spawned', 'S/a', {
      parent: 'S',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
    h.now = 4_000;
    const long = '😀'.repeat(1_500);
    const applied = h.apply('message.sent', 'S', { to: 'S/a', text: long });
    expect(applied.message).toEqual({
      seq: 3,
      fromNo: 1,
      toNo: 2,
      messageId: 'msg_3',
      text: '😀'.repeat(1_000),
      created: 4_000,
    });
    expect(applied.event.changes.map((c) => c.node_id)).toEqual([h.id('S')]);
    const withId = h.apply('message.sent', 'S/a', { to: 'S', message_id: 'm-1' });
    expect(withId.message).toMatchObject({ messageId: 'm-1', text: null, fromNo: 2, toNo: 1 });
  });
});
