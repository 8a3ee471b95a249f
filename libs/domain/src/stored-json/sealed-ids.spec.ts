import type { AppliedEvent } from '../applied-event';
import { GRAPH_ID as G, Harness } from '../__tests__/harness';
import { encodeId, encodeReadableId } from '../ids';
import { storedEventJson } from './event-json';
import { storedNodeJsonOf } from './node-json';
import { sealChangeIds, sealStoredJsonIds } from './sealed-ids';

/** Every sealed id of graph G's first nodes and events, with its readable form. */
const ids = new Map<string, string>();
for (let n = 1; n <= 9; n++) {
  ids.set(encodeId('node', G, n), encodeReadableId('node', G, n));
  ids.set(encodeId('evt', G, n), encodeReadableId('evt', G, n));
}

/** Stored JSON as written before ids were sealed: every sealed id in its readable form. */
function unsealed(json: string): string {
  let out = json;
  for (const [sealed, old] of ids) out = out.split(sealed).join(old);
  expect(out).not.toMatch(/"(node|evt)_[A-Za-z0-9_-]{22}"/);
  return out;
}

describe('sealStoredJsonIds (migration 0012)', () => {
  const h = new Harness();
  const applied: AppliedEvent[] = [
    h.apply('session.started', 'S', { title: 'node_170001 looks like an id' }),
    h.apply('agent.spawned', 'S/a', {
      parent: 'S',
      agent_type: 'x',
      purpose: 'p',
      background: true,
    }),
    h.apply('agent.spawned', 'S/a/b', {
      parent: 'S/a',
      agent_type: 'x',
      purpose: 'q',
      background: true,
    }),
    h.apply('wait.started', 'S', { on: ['S/a', 'S/a/b'] }),
  ];

  it('gives the sealed text of nodes stored with readable ids, byte for byte', () => {
    for (const json of applied.flatMap((a) => a.presented.map(storedNodeJsonOf))) {
      expect(json).toMatch(/"parent_id":(null|"node_)/);
      expect(sealStoredJsonIds('node', unsealed(json))).toBe(json);
      expect(sealStoredJsonIds('node', json)).toBeNull();
    }
  });

  it('gives the sealed text of events: ids, node ids, changed id fields, blocked.on_ids', () => {
    expect(storedEventJson(G, applied[3]!.event)).toContain('"on_ids":["node_');
    for (const a of applied) {
      const json = storedEventJson(G, a.event);
      expect(sealStoredJsonIds('event', unsealed(json))).toBe(json);
      const changes = JSON.parse(unsealed(JSON.stringify(a.event.changes)));
      expect(sealChangeIds(changes)).toEqual(a.event.changes);
    }
  });

  it('leaves user text that looks like an id alone', () => {
    const json = unsealed(storedNodeJsonOf(applied[0]!.presented[0]!));
    expect(sealStoredJsonIds('node', json)).toContain('"node_170001 looks like an id"');
  });
});
