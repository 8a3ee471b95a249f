import { NO_USAGE } from '../usage/usage';
import { Harness } from '../__tests__/harness';
import { rowsOf, snapshotState } from '../__tests__/state-snapshot';
import { WatchEvent } from '../watch-event';
import { applyEvent } from './apply-event';
import { createGraphState, graphStateFromRows } from './graph-state-factory';

describe('graph states', () => {
  it('starts empty', () => {
    const state = createGraphState(4);
    expect(state).toMatchObject({ graphId: 4, lastSeq: 0, lastCreated: 0, rootCount: 0 });
    expect(state.counts).toEqual({
      nodes: 0,
      sessions: 0,
      agents: 0,
      blocked: 0,
      by_state: { working: 0, input_required: 0, idle: 0, completed: 0, failed: 0, canceled: 0 },
      usage: NO_USAGE,
    });
  });

  it('rebuilds from rows a state that applies the next event exactly like the original', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.apply('session.started', 'R', {});
    h.apply('agent.spawned', 'S/a', { parent: 'S', agent_type: 'x', purpose: 'p' });
    h.apply('agent.spawned', 'S/b', {
      parent: 'S',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    });
    h.apply('wait.started', 'S/a', { on: ['S/b'] });
    h.apply('tasks.updated', 'S/b', { tasks: [{ content: 'x', status: 'pending' }] });

    const rebuilt = graphStateFromRows(rowsOf(h.state));
    expect(snapshotState(rebuilt)).toEqual(snapshotState(h.state));

    const next = h.event('agent.spawned', 'R/c', {
      parent: 'R',
      agent_type: 'x',
      purpose: 'p',
    }) as WatchEvent;
    const fromRebuilt = applyEvent(rebuilt, next, 7);
    const fromOriginal = applyEvent(h.state, next, 7);
    expect(fromRebuilt).toEqual(fromOriginal);
    expect(snapshotState(rebuilt)).toEqual(snapshotState(h.state));
  });

  it('keeps nothing of the rows it was given', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    const rows = rowsOf(h.state);
    const state = graphStateFromRows(rows);
    rows.nodes[0]!.title = 'mutated';
    rows.nodes[0]!.taskCounts.open = 9;
    rows.counts.by_state.working = 42;
    expect(state.nodes.get(1)!.title).toBeNull();
    expect(state.nodes.get(1)!.taskCounts.open).toBe(0);
    expect(state.counts.by_state.working).toBe(1);
  });
});
