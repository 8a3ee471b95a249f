import {
  applyEvent,
  createGraphState,
  inFieldOrder,
  NODE_FIELDS,
  presentNode,
  toPublicNode,
} from '@graph-history/domain';
import { EventScript } from './support/watch-events';

/** The node read's one-literal Node is the general presenter's, key for key and in order. */
describe('presentNode', () => {
  it('equals the public fields put in NodeSchema order, serialised alike', () => {
    const s = new EventScript();
    s.session('S')
      .agent('S/a', 'S')
      .agent('S/b', 'S/a')
      .tasks('S/a', [{ content: 'x', status: 'in_progress' }])
      .attention('S/b', 'permission', 'may I?')
      .waitStarted('S/a', ['S/b'], 'review')
      .status('S/b', 'working');
    const state = createGraphState(7);
    s.events.forEach((e, i) => applyEvent(state, e, i + 1));
    expect(state.nodes.size).toBe(3);
    for (const rec of state.nodes.values()) {
      for (const stale of [false, true]) {
        const general = inFieldOrder(NODE_FIELDS, {
          ...toPublicNode(7, rec, 'key7'),
          object: 'node',
          as_of_event_id: 'evt_x',
          stale,
        });
        expect(JSON.stringify(presentNode(7, 'key7', rec, 'evt_x', stale))).toBe(
          JSON.stringify(general),
        );
      }
    }
  });
});
