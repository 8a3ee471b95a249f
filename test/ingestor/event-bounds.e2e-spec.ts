import { LIMITS } from '@graph-history/domain';
import { EndpointFixture, endpointFixture } from './support/endpoint-fixture';
import { watchEvent } from './support/watch-events';

const spawn = (key: string, parent: string, node: string) =>
  watchEvent(key, 'agent.spawned', node, { parent, agent_type: 't', purpose: 'p' });

/** A session `<g>-s` and a chain of `depth` agents under it, each the child of the previous one. */
const chain = (g: string, depth: number) => [
  watchEvent(`${g}-0`, 'session.started', `${g}-s`),
  ...Array.from({ length: depth }, (_, i) =>
    spawn(`${g}-${i + 1}`, i === 0 ? `${g}-s` : `${g}-s/${i}`, `${g}-s/${i + 1}`),
  ),
];

/** What one event can cost (docs/api-reference.md, "Limits of one event") over HTTP. */
describe('bounds of one event at ingest', () => {
  let f: EndpointFixture;
  beforeAll(async () => {
    f = await endpointFixture(true);
  });
  afterAll(() => f.close());

  const nodeRefs = async (graphKey: string) => {
    const g = await f.graphRow(graphKey);
    if (!g) return [];
    return f.t.db
      .selectFrom('node_refs')
      .select(['ref', 'depth'])
      .where('graph_id', '=', g.graph_id)
      .execute();
  };

  it('refuses a chain deeper than the limit in one batch, naming the spawn, storing nothing', async () => {
    const res = await f.post('deep-one', { events: chain('d1', LIMITS.treeDepth + 1) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      param: `events[${LIMITS.treeDepth + 1}].payload.parent`,
    });
    expect(res.json().error.message).toMatch(/depth 32/);
    expect(await f.graphRow('deep-one')).toBeUndefined();
  });

  it('accepts a chain down to the limit, applies it, and refuses one level more in a later batch', async () => {
    const events = chain('d2', LIMITS.treeDepth);
    expect((await f.post('deep-two', { events })).statusCode).toBe(202);
    await f.appliedThrough('deep-two', events.length);
    const refs = await nodeRefs('deep-two');
    expect(refs).toContainEqual({ ref: `d2-s/${LIMITS.treeDepth}`, depth: LIMITS.treeDepth });

    const before = await f.graphRow('deep-two');
    const next = [
      watchEvent('d2-x', 'activity', 'd2-s'),
      spawn('d2-y', `d2-s/${LIMITS.treeDepth}`, 'd2-s/too-deep'),
    ];
    const res = await f.post('deep-two', { events: next });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'parameter_invalid',
      param: 'events[1].payload.parent',
    });
    expect(await f.graphRow('deep-two')).toEqual(before);
    expect(await f.inboxOf('deep-two')).toHaveLength(0);
    // a sibling one level up still fits
    const sibling = spawn('d2-z', `d2-s/${LIMITS.treeDepth - 1}`, 'd2-s/sibling');
    expect((await f.post('deep-two', { events: [sibling] })).statusCode).toBe(202);
    await f.appliedThrough('deep-two', events.length + 1);
    expect((await f.graphRow('deep-two'))!.stalled_seq).toBeNull();
  });

  it('refuses a payload over the text limit (1,000 tasks of 3,900 characters) with param payload', async () => {
    const tasks = Array.from({ length: 1_000 }, (_, i) => ({
      id: `t${i}`,
      content: 'x'.repeat(3_900),
      status: 'pending',
    }));
    const res = await f.post('big-tasks', {
      events: [
        watchEvent('bt-0', 'session.started', 'bt-s'),
        watchEvent('bt-1', 'tasks.updated', 'bt-s', { tasks }),
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'parameter_invalid',
      param: 'events[1].payload',
    });
    expect(res.json().error.message).toMatch(/at most 100000/);
    expect(await f.graphRow('big-tasks')).toBeUndefined();
  });
});
