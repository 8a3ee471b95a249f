import { GraphHistory, type Node } from '@graph-history/client';
import { type IssuedKey, Services } from '../conformance/support/services';
import { WatchScript } from '../conformance/support/watch-events';
import { waitUntil } from '../support/wait';

const NODES = 10_000;
/** Agent `i` (1-based) is spawned under node `parentOf(i)`: a tree of varied fan-out and depth. */
const parentOf = (i: number) => (i % 7 === 0 ? i - 1 : Math.floor((i - 1) / 3));
const ref = (i: number) => (i === 0 ? 'S' : `S/${i}`);

/** Depth-first pre-order of the tree above, children oldest first (what order=tree promises). */
function treeOrder(): string[] {
  const children = new Map<number, number[]>();
  for (let i = 1; i < NODES; i++)
    children.set(parentOf(i), [...(children.get(parentOf(i)) ?? []), i]);
  const order: string[] = [];
  const stack = [0];
  while (stack.length > 0) {
    const i = stack.pop()!;
    order.push(ref(i));
    stack.push(...(children.get(i) ?? []).reverse());
  }
  return order;
}

/** Auto-pagination across a 10,000-node graph, forward and backward, pinned to one moment. */
describe('client: pagination of a 10,000-node graph', () => {
  let s: Services;
  let key: IssuedKey;
  let client: GraphHistory;

  beforeAll(async () => {
    s = await Services.start();
    key = await s.createKey('big');
    client = new GraphHistory({ apiKey: key.key, baseUrl: s.apiBaseUrl });
    const script = new WatchScript(Date.now() - 2 * 60 * 60_000, 100).session('S');
    for (let i = 1; i < NODES; i++) script.agent(ref(i), ref(parentOf(i)));
    for (let i = 0; i < script.events.length; i += 1_000) {
      const res = await s.ingest('big', script.events.slice(i, i + 1_000), key.auth);
      if (res.status !== 202) throw new Error(`ingest: ${res.status} ${res.text}`);
    }
    await waitUntil(
      'the 10,000 nodes to be applied',
      async () => (await client.graphs.retrieve('gph_big')).counts.nodes === NODES,
      120_000,
    );
  }, 240_000);
  afterAll(() => s?.stop());

  it('walks every node forward in tree order, 1,000 per page', async () => {
    const refs: string[] = [];
    for await (const n of client.nodes.list('gph_big', { order: 'tree', limit: 1_000 }))
      refs.push(n.provider_ref);
    expect(refs).toEqual(treeOrder());
  }, 60_000);

  it('walks backward from a cursor, nearest first, with small pages', async () => {
    const forward = await client.nodes.list('gph_big', { limit: 1_000 }).toArray({ limit: NODES });
    expect(forward).toHaveLength(NODES);
    const last = forward[NODES - 1]!;
    const backward: Node[] = [];
    for await (const n of client.nodes.list('gph_big', { endingBefore: last.id, limit: 250 }))
      backward.push(n);
    expect(backward.map((n) => n.id)).toEqual(
      forward
        .slice(0, -1)
        .map((n) => n.id)
        .reverse(),
    );
  }, 60_000);

  it('stays at the first page’s moment while nodes are added between pages', async () => {
    const list = client.nodes.list('gph_big', { order: 'tree', limit: 1_000 });
    const first = await list;
    const more = new WatchScript(Date.now(), 1);
    for (let i = 0; i < 25; i++) more.agent(`S/extra-${i}`, 'S');
    const res = await s.ingest('big', more.events, key.auth);
    expect(res.status).toBe(202);
    await waitUntil(
      'the new nodes to be readable',
      async () => (await client.graphs.retrieve('gph_big')).counts.nodes === NODES + 25,
    );
    const seen: Node[] = [];
    for await (const n of list) seen.push(n);
    expect(seen).toHaveLength(NODES);
    expect(new Set(seen.map((n) => n.as_of_event_id))).toEqual(new Set([first.as_of_event_id]));
    expect(seen.some((n) => n.provider_ref.startsWith('S/extra-'))).toBe(false);
    const now = await client.nodes.list('gph_big', { limit: 1_000 }).toArray({ limit: 20_000 });
    expect(now).toHaveLength(NODES + 25);
  }, 60_000);

  it('walks the retained events both ways and stops at toArray’s limit', async () => {
    const graph = await client.graphs.retrieve('gph_big');
    const asc = await client.events
      .list('gph_big', { order: 'asc', limit: 300 })
      .toArray({ limit: 5_000 });
    expect(asc).toHaveLength(graph.retention.event_count);
    expect(asc[0]!.id).toBe(graph.retention.first_event_id);
    expect(asc.at(-1)!.id).toBe(graph.retention.last_event_id);
    const desc = await client.events.list('gph_big', { limit: 300 }).toArray({ limit: 5_000 });
    expect(desc.map((e) => e.id)).toEqual(asc.map((e) => e.id).reverse());
    const some = await client.events.list('gph_big', { limit: 7 }).toArray({ limit: 10 });
    expect(some.map((e) => e.id)).toEqual(desc.slice(0, 10).map((e) => e.id));
  }, 60_000);
});
