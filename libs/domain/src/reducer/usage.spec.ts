import { Harness } from '../__tests__/harness';
import { OTHER_MODELS, USAGE_MODELS_MAX } from '../usage/add-usage';
import { parseWatchEvent } from '../watch-event';

const SONNET = 'claude-sonnet-4-5-20250929';
const tokens = (input: number, output: number, cacheRead = 0, cacheCreation = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_tokens: cacheRead,
  cache_creation_tokens: cacheCreation,
});

function tree(): Harness {
  const h = new Harness();
  h.apply('session.started', 'S', {});
  h.apply('agent.spawned', 'S/a', { parent: 'S', agent_type: 'x', purpose: 'p' });
  h.apply('agent.spawned', 'S/b', { parent: 'S/a', agent_type: 'x', purpose: 'p' });
  return h;
}

describe('usage.reported', () => {
  it('adds to the node, to the subtree totals of it and its ancestors, and to the graph', () => {
    const h = tree();
    const applied = h.after(5, 'usage.reported', 'S/b', {
      model: SONNET,
      ...tokens(10, 20, 1_000, 100),
    });
    expect(h.pub('S/b').usage!).toMatchObject(tokens(10, 20, 1_000, 100));
    // 10 × 3 + 20 × 15 + 1,000 × 0.30 + 100 × 3.75 per million
    expect(h.pub('S/b').usage!.cost_usd).toBeCloseTo(0.001005, 9);
    expect(h.pub('S/b').usage!.by_model[SONNET]).toMatchObject({ ...tokens(10, 20, 1_000, 100) });
    for (const ref of ['S', 'S/a', 'S/b'])
      expect(h.pub(ref).descendant_usage).toEqual(h.pub('S/b').usage!);
    expect(h.pub('S').usage).toBeNull();
    expect(applied.event.counts.usage).toEqual(h.pub('S/b').usage!);
    expect(applied.event.changes.map((c) => Object.keys(c.fields).sort())).toEqual([
      ['descendant_usage', 'last_event', 'usage'],
      ['descendant_usage'],
      ['descendant_usage'],
    ]);
  });

  it('is accepted on a node that has ended, and changes only last_event when it holds no tokens', () => {
    const h = tree();
    h.apply('ended', 'S/b', { state: 'completed' });
    h.after(1, 'usage.reported', 'S/b', { model: SONNET, ...tokens(1, 2) });
    expect(h.pub('S/b').usage!.output_tokens).toBe(2);
    const empty = h.after(1, 'usage.reported', 'S/a', {
      model: SONNET,
      input_tokens: 0,
      output_tokens: 0,
    });
    expect(empty.event.changes).toEqual([
      { node_id: h.id('S/a'), created: false, fields: { last_event: { from: 1_000, to: 1_002 } } },
    ]);
  });

  it('prices an unknown model at null, and sums only the priced ones', () => {
    const h = tree();
    h.apply('usage.reported', 'S/a', { model: 'mystery', ...tokens(100, 100) });
    expect(h.pub('S/a').usage!.cost_usd).toBeNull();
    h.apply('usage.reported', 'S/b', { model: 'gpt-5-codex', ...tokens(1_000_000, 0) });
    expect(h.pub('S/a').descendant_usage!.by_model.mystery!.cost_usd).toBeNull();
    expect(h.pub('S/a').descendant_usage!.cost_usd).toBe(1.25);
  });

  it(`names at most ${USAGE_MODELS_MAX} models, counting the others under ${OTHER_MODELS}`, () => {
    const h = tree();
    for (let i = 0; i < USAGE_MODELS_MAX + 3; i++)
      h.apply('usage.reported', 'S', { model: `m${i}`, ...tokens(1, 1) });
    const usage = h.pub('S').usage!;
    expect(Object.keys(usage.by_model)).toHaveLength(USAGE_MODELS_MAX);
    expect(usage.by_model[OTHER_MODELS]).toMatchObject(tokens(4, 4));
    expect(usage.input_tokens).toBe(USAGE_MODELS_MAX + 3);
  });

  it('refuses negative, fractional or missing token counts, naming the field', () => {
    const base = {
      key: 'k',
      type: 'usage.reported',
      created: 1,
      node: 'S',
      source: { provider: 'p', provider_version: '', adapter: 'a' },
    };
    const param = (payload: Record<string, unknown>) => {
      const r = parseWatchEvent({ ...base, payload });
      return r.ok ? null : r.rejection.param;
    };
    expect(param({ model: 'm', input_tokens: -1, output_tokens: 0 })).toBe('payload.input_tokens');
    expect(param({ model: 'm', input_tokens: 1, output_tokens: 0.5 })).toBe(
      'payload.output_tokens',
    );
    expect(param({ model: 'm', input_tokens: 1 })).toBe('payload.output_tokens');
    expect(param({ input_tokens: 1, output_tokens: 1 })).toBe('payload.model');
    expect(
      param({ model: 'm', input_tokens: 1, output_tokens: 1, message_id: 'x', request_id: 'r' }),
    ).toBeNull();
  });
});
