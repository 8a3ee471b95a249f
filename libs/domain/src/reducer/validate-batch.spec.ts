import { SOURCE } from '../__tests__/harness';
import { RefView } from './ref-checks';
import { MAX_CREATED_AHEAD_MS } from '../created-window';
import { validateBatch } from './validate-batch';

const raw = (
  type: string,
  node: string,
  payload: Record<string, unknown> = {},
  key = `${type}:${node}`,
) => ({
  key,
  type,
  created: 1_000,
  node,
  source: SOURCE,
  payload,
});

const known = new Map([
  ['S', { ended: false, sessionRef: 'S' }],
  ['S/old', { ended: true, sessionRef: 'S' }],
]);
const view: RefView = { get: (ref) => known.get(ref) };
const NOW = 10_000;

describe('validateBatch', () => {
  it('accepts a batch whose events refer to refs created earlier in the same batch', () => {
    const result = validateBatch(
      view,
      [
        raw('agent.spawned', 'S/a', { parent: 'S', agent_type: 'x', purpose: 'p' }),
        raw('session.started', 'T', { parent: 'S/a' }),
        raw('wait.started', 'T', { on: ['S/a', 'S'] }),
        raw('ended', 'S/a', { state: 'completed' }),
        raw('activity', 'S/a'),
      ],
      NOW,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.events.map((e) => e.type)).toEqual([
      'agent.spawned',
      'session.started',
      'wait.started',
      'ended',
      'activity',
    ]);
    expect([...result.refs]).toEqual([
      // S was stored without a depth: the refs made under it have none either
      ['S/a', { ended: true, sessionRef: 'S', depth: null }],
      ['T', { ended: false, sessionRef: 'T', depth: null }],
    ]);
  });

  it("checks agents against their session's ref, also for parents created in the batch", () => {
    const result = validateBatch(
      view,
      [
        raw('session.started', 'T', { parent: 'S' }),
        raw('agent.spawned', 'T/a', { parent: 'T', agent_type: 'x', purpose: 'p' }),
        raw('agent.spawned', 'S/b', { parent: 'T/a', agent_type: 'x', purpose: 'p' }),
      ],
      NOW,
    );
    expect(result).toEqual({
      ok: false,
      index: 2,
      rejection: expect.objectContaining({ param: 'node' }),
    });
  });

  it('refuses the first event that an earlier event of the batch made invalid', () => {
    const result = validateBatch(
      view,
      [raw('ended', 'S', { state: 'completed' }), raw('status', 'S', { state: 'idle' })],
      NOW,
    );
    expect(result).toEqual({
      ok: false,
      index: 1,
      rejection: expect.objectContaining({ param: 'node' }),
    });
  });

  it('refuses a second create of a ref within the batch', () => {
    const result = validateBatch(
      view,
      [raw('session.started', 'N', {}, 'k1'), raw('session.started', 'N', {}, 'k2')],
      NOW,
    );
    expect(result).toMatchObject({ ok: false, index: 1, rejection: { param: 'node' } });
  });

  it('reports shape errors with their index and a param relative to the event', () => {
    expect(
      validateBatch(view, [raw('activity', 'S'), raw('status', 'S', { state: 'sleeping' })], NOW),
    ).toMatchObject({
      ok: false,
      index: 1,
      rejection: { param: 'payload.state' },
    });
    expect(validateBatch(view, [raw('teleport', 'S')], NOW)).toMatchObject({
      ok: false,
      index: 0,
      rejection: { param: 'type' },
    });
    expect(validateBatch(view, [raw('status', 'S/old', { state: 'idle' })], NOW)).toMatchObject({
      index: 0,
      rejection: { param: 'node' },
    });
  });

  it('accepts an empty batch and returns no refs', () => {
    expect(validateBatch(view, [], NOW)).toEqual({ ok: true, events: [], refs: new Map() });
  });

  it('refuses a created more than 15 minutes ahead of now, naming events[i].created', () => {
    const at = (created: number) => ({ ...raw('activity', 'S', {}, `a${created}`), created });
    const limit = NOW + MAX_CREATED_AHEAD_MS;
    expect(validateBatch(view, [at(limit)], NOW)).toMatchObject({ ok: true });
    expect(validateBatch(view, [at(limit), at(limit + 1)], NOW)).toMatchObject({
      ok: false,
      index: 1,
      rejection: { param: 'created' },
    });
    expect(validateBatch(view, [at(8_640_000_000_000_000)], NOW)).toMatchObject({ ok: false });
  });
});
