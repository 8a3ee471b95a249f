import { Harness } from '../__tests__/harness';
import { storedEventJson } from './event-json';
import { listedEventFromJson } from './listed-event-json';
import { nodeRecordFromJson } from './node-record-json';
import { storedNodeJson } from './node-json';

describe('records rebuilt from the stored JSON', () => {
  const h = new Harness();
  h.apply('session.started', 'S', { title: 'root' });
  h.apply('agent.spawned', 'S/a', { parent: 'S', purpose: 'p', agent_type: 't' });
  h.apply('agent.spawned', 'S/b', {
    parent: 'S',
    agent_type: 't',
    purpose: 'q',
    requested_by: 'S/a',
  });
  h.apply('attention.raised', 'S/a', { reason: 'question', message: 'which?' });
  const last = h.apply('wait.started', 'S', { on: ['S/a', 'S/b'], reason: 'join' });
  const graphId = 2 ** 40 + 7;

  it('gives back every node record the reducer holds', () => {
    for (const ref of ['S', 'S/a', 'S/b']) {
      const rec = h.rec(ref);
      const json = storedNodeJson(graphId, rec);
      expect(nodeRecordFromJson(json, rec.sortKey, rec.createdSeq)).toEqual(rec);
    }
    expect(h.rec('S').blocked?.onNos.length).toBe(2);
  });

  it('gives back the listed event', () => {
    const e = last.event;
    const listed = { seq: e.seq, type: e.type, created: e.created, nodeNo: e.nodeNo };
    expect(listedEventFromJson(listed, storedEventJson(graphId, e))).toEqual({
      ...listed,
      source: e.source,
      payload: e.payload,
      changes: e.changes,
    });
  });
});
