import { Harness } from './__tests__/harness';
import { encodeId } from './ids';
import { isStale, toPublicNode } from './public-node';

const node7 = (n: number) => encodeId('node', 7, n);

describe('toPublicNode', () => {
  it('maps node numbers to node ids and the graph key to the graph id', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.apply('agent.spawned', 'S/a', { parent: 'S', agent_type: 'x', purpose: 'p' });
    const node = toPublicNode(7, h.rec('S'), 'my-share');
    expect(Object.keys(node).slice(0, 2)).toEqual(['id', 'graph_id']);
    expect(node).toMatchObject({
      id: node7(1),
      graph_id: 'gph_my-share',
      root_id: node7(1),
      blocked: { on_ids: [node7(2)], node_count: 1 },
    });
    expect(toPublicNode(7, h.rec('S/a'), 'my-share')).toMatchObject({
      parent_id: node7(1),
      requested_by_id: node7(1),
    });
  });

  it('shares no object with the record', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    h.apply('attention.raised', 'S', { reason: 'error' });
    const node = toPublicNode(7, h.rec('S'), 'g');
    node.task_counts.open = 5;
    node.attention!.message = 'changed';
    expect(h.rec('S').taskCounts.open).toBe(0);
    expect(h.rec('S').attention!.message).toBeNull();
  });
});

describe('isStale', () => {
  it('is true only for a working node silent for longer than the threshold', () => {
    const h = new Harness();
    h.apply('session.started', 'S', {});
    const rec = h.rec('S');
    expect(isStale(rec, 1_000 + 300_000, 300_000)).toBe(false);
    expect(isStale(rec, 1_000 + 300_001, 300_000)).toBe(true);
    h.apply('status', 'S', { state: 'idle' });
    expect(isStale(h.rec('S'), 1_000 + 900_000, 300_000)).toBe(false);
  });
});
