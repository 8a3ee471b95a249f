import { Harness } from '../__tests__/harness';
import { eventId } from '../ids';
import { presentEvent } from '../public-event';
import { presentNode } from '../public-node';
import { eventJsonIn, storedEventJson } from './event-json';
import { inJsonbOrder } from './jsonb-order';
import { jsonStringBody, nodeJsonAt, storedNodeJson } from './node-json';

describe('stored JSON', () => {
  const h = new Harness();
  h.apply('session.started', 'S', { title: 'a "quoted" title, "stale":false, here' });
  const last = h.apply('attention.raised', 'S', {
    reason: 'question',
    message: ',"graph_id":"gph_',
  });
  const rec = h.rec('S');
  const graphId = 7;

  it('splices a node’s per-read fields into exactly what presentNode gives', () => {
    const stored = storedNodeJson(graphId, rec);
    for (const stale of [false, true]) {
      const json = nodeJsonAt(stored, jsonStringBody('k-1'), eventId(graphId, 2), stale);
      const presented = presentNode(graphId, 'k-1', rec, eventId(graphId, 2), stale);
      expect(JSON.parse(json)).toEqual(presented);
      expect(json).toBe(
        JSON.stringify({
          ...presented,
          // jsonb's key order for the nested objects (see inJsonbOrder)
          attention: {
            since: rec.attention!.since,
            reason: 'question',
            message: ',"graph_id":"gph_',
          },
          task_counts: { open: 0, total: 0, pending: 0, completed: 0, in_progress: 0 },
        }),
      );
    }
  });

  it('splices an event’s graph id and data.node into exactly what presentEvent gives', () => {
    const e = last.event;
    const stored = storedEventJson(graphId, e);
    const node = presentNode(graphId, 'k-1', rec, eventId(graphId, e.seq), false);
    // as read back from jsonb: payload and change values in jsonb's key order
    const read = { ...e, payload: inJsonbOrder(e.payload), changes: inJsonbOrder(e.changes) };
    expect(eventJsonIn(stored, jsonStringBody('k-1'))).toBe(
      JSON.stringify(presentEvent(graphId, 'k-1', read)),
    );
    expect(JSON.stringify(read.payload)).toBe(
      '{"reason":"question","message":",\\"graph_id\\":\\"gph_"}',
    );
    const nodeJson = JSON.stringify(node);
    expect(JSON.parse(eventJsonIn(stored, 'k-1', nodeJson))).toEqual(
      presentEvent(graphId, 'k-1', e, node),
    );
    expect(JSON.parse(eventJsonIn(stored, 'k-1', null))).toEqual(
      presentEvent(graphId, 'k-1', e, null),
    );
  });
});
