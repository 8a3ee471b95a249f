import { eventId, nodeId, type NodeRecord } from '@graph-history/domain';
import {
  GraphReadRepository,
  GraphRow,
  NodeItemsRepository,
  NodeReadRepository,
} from '@graph-history/db';
import { ApiError } from '@graph-history/http';
import { ExpandBudget } from '../../apps/api/src/expand/expand-budget';
import { ExpandTree, NodeExpansion } from '../../apps/api/src/expand/expand-paths';
import { NodeExpander } from '../../apps/api/src/expand/node-expander.service';
import { Expanded, nodeSlot, NodeSlot } from '../../apps/api/src/expand/node-slot';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { seedHistory, SeededHistory } from '../db/support/seeded-history';
import { EventScript } from './support/watch-events';

/** NodeExpander on the real database: what each expansion holds, level by level, and its budget. */
describe('NodeExpander', () => {
  let t: TestDatabase;
  let expander: NodeExpander;
  let h: SeededHistory;
  let graph: GraphRow;
  let last: number;

  beforeAll(async () => {
    t = await createTestDatabase();
    expander = new NodeExpander(new NodeReadRepository(t.db), new NodeItemsRepository(t.db));
    const s = new EventScript();
    s.session('S')
      .agent('S/a', 'S', { spawn_call_id: 'c1' })
      .agent('S/a/b', 'S/a', { requested_by: 'S' })
      .agent('S/c', 'S')
      .tasks('S/a', [{ content: 'x', status: 'pending' }])
      .waitStarted('S', ['S/a', 'S/c'], 'join')
      .message('S', 'S/a', 'go')
      .ended('S/c');
    h = await seedHistory(t.db, 'expand', s.events);
    last = s.events.length;
    graph = (await new GraphReadRepository(t.db).findById(h.graphId))!;
  });
  afterAll(() => t.drop());

  const tree = (...entries: [NodeExpansion, ExpandTree?][]): ExpandTree =>
    new Map(entries.map(([k, sub]) => [k, sub ?? new Map()]));
  const slotOf = (no: number, seq = last, expand: ExpandTree = new Map()): NodeSlot =>
    nodeSlot(h.nodesAt(seq).get(no)!, { seq, eventId: eventId(graph.graphId, seq), at: 0 }, expand);
  const node = (e: Expanded | undefined): NodeRecord => {
    if (e?.kind !== 'node') throw new Error(`not a node: ${e?.kind}`);
    return e.slot.rec;
  };
  const nodes = (e: Expanded | undefined): NodeRecord[] => {
    if (e?.kind !== 'nodes') throw new Error(`not nodes: ${e?.kind}`);
    return e.slots.map((s) => s.rec);
  };
  const items = (e: Expanded | undefined): object[] => {
    if (e?.kind !== 'items') throw new Error(`not items: ${e?.kind}`);
    return e.items;
  };

  it('fills references with the nodes as of the slot’s event', async () => {
    const b = slotOf(3, last, tree(['parent'], ['root'], ['session'], ['requested_by']));
    await expander.expand(graph, [b], null);
    expect(node(b.expanded.get('parent'))).toEqual(h.nodesAt(last).get(2));
    expect(node(b.expanded.get('root'))).toEqual(h.nodesAt(last).get(1));
    expect(node(b.expanded.get('session'))).toEqual(h.nodesAt(last).get(1));
    expect(node(b.expanded.get('requested_by'))).toEqual(h.nodesAt(last).get(1));
    // a root has no parent: nothing to expand
    const root = slotOf(1, last, tree(['parent']));
    await expander.expand(graph, [root], null);
    expect(root.expanded.has('parent')).toBe(false);
  });

  it('lists children, descendants and blocked.on as of the slot’s event, then expands below them', async () => {
    const at = (seq: number) =>
      slotOf(1, seq, tree(['children', tree(['tasks'])], ['descendants'], ['blocked.on']));
    const now = at(last);
    const early = at(3);
    await expander.expand(graph, [now, early], null);
    const children = (seq: number) =>
      [...h.nodesAt(seq).values()].filter((r) => r.parentNo === 1).sort((x, y) => x.no - y.no);
    expect(nodes(now.expanded.get('children'))).toEqual(children(last));
    expect(nodes(early.expanded.get('children'))).toEqual(children(3));
    expect(nodes(now.expanded.get('descendants')).map((r) => r.no)).toEqual([2, 3, 4]);
    expect(nodes(now.expanded.get('blocked.on')).map((r) => r.no)).toEqual(
      h.nodesAt(last).get(1)!.blocked!.onNos,
    );
    expect(early.expanded.has('blocked.on')).toBe(false);
    // the next level: tasks of each child
    const [a] = (now.expanded.get('children') as Extract<Expanded, { kind: 'nodes' }>).slots;
    expect(items(a!.expanded.get('tasks'))).toEqual([
      expect.objectContaining({ object: 'task', content: 'x', status: 'pending' }),
    ]);
  });

  it('fills item lists in their public shapes', async () => {
    const s = slotOf(1, last, tree(['spawns'], ['waits'], ['messages'], ['tasks']));
    await expander.expand(graph, [s], null);
    // S/a/b was spawned by S/a at S's request: S asked for all three
    expect(items(s.expanded.get('spawns'))).toEqual([
      expect.objectContaining({
        object: 'spawn',
        spawn_call_id: 'c1',
        node_id: nodeId(graph.graphId, 2),
      }),
      expect.objectContaining({ object: 'spawn', node_id: nodeId(graph.graphId, 3) }),
      expect.objectContaining({ object: 'spawn', node_id: nodeId(graph.graphId, 4) }),
    ]);
    expect(items(s.expanded.get('waits'))).toHaveLength(2);
    expect(items(s.expanded.get('messages'))).toEqual([
      expect.objectContaining({ object: 'message', direction: 'sent', text: 'go' }),
    ]);
    expect(items(s.expanded.get('tasks'))).toEqual([]);
  });

  it('limits descendants to the depth asked for below each node', async () => {
    const s = slotOf(1, last, tree(['descendants']));
    await expander.expand(graph, [s], 1);
    expect(nodes(s.expanded.get('descendants')).map((r) => r.no)).toEqual([2, 4]);
  });

  it('refuses with expand_too_large past the budget', async () => {
    const s = slotOf(1, last, tree(['descendants', tree(['children', tree(['parent'])])]));
    const err = await expander
      .expand(graph, [s], null, new ExpandBudget(4))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('expand_too_large');
    // the same expansion fits a budget of its size
    const fits = slotOf(1, last, tree(['descendants']));
    await expander.expand(graph, [fits], null, new ExpandBudget(3));
    expect(nodes(fits.expanded.get('descendants'))).toHaveLength(3);
  });
});
