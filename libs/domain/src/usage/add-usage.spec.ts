import fc from 'fast-check';
import { compareJsonbKeys } from '../stored-json/jsonb-order';
import { addUsage, OTHER_MODELS, USAGE_MODELS_MAX } from './add-usage';
import { costOf, DEFAULT_PRICES, priceOf, roundUsd, type PriceTable } from './model-prices';
import { NO_USAGE, TOKEN_KINDS, type PricedCounts, type TokenCounts, type Usage } from './usage';
import { usageJson } from './usage-json';

const MODELS = ['claude-sonnet-4-5-20250929', 'gpt-5-codex', 'mystery', '__proto__', '12', 'b'];
const DOUBLED: PriceTable = new Map(
  [...DEFAULT_PRICES].map(([m, p]) => [
    m,
    { input: p.input * 2, cache_read: p.cache_read, cache_write: p.cache_write, output: p.output },
  ]),
);

const count = fc.integer({ min: 0, max: 10 ** 9 });
const report = fc.record({
  model: fc.oneof(
    fc.constantFrom(...MODELS),
    fc.constantFrom(...Array.from({ length: 25 }, (_, i) => `m${i}`)),
  ),
  tokens: fc.record({
    input_tokens: count,
    cache_read_tokens: count,
    cache_creation_tokens: count,
    output_tokens: count,
  }),
  doubled: fc.boolean(),
});

/** The usage of `reports`, every model priced from its sums with `prices` (the last report's). */
function expected(reports: { model: string; tokens: TokenCounts }[], prices: PriceTable): Usage {
  const sums = new Map<string, TokenCounts>();
  for (const { model, tokens } of reports) {
    const key = sums.has(model) || sums.size < USAGE_MODELS_MAX - 1 ? model : OTHER_MODELS;
    const s = sums.get(key) ?? {
      input_tokens: 0,
      cache_read_tokens: 0,
      cache_creation_tokens: 0,
      output_tokens: 0,
    };
    for (const k of TOKEN_KINDS) s[k] += tokens[k];
    sums.set(key, s);
  }
  const byModel: Record<string, PricedCounts> = {};
  let cost: number | null = null;
  for (const name of [...sums.keys()].sort(compareJsonbKeys)) {
    const t = sums.get(name)!;
    const price = name === OTHER_MODELS ? undefined : priceOf(prices, name);
    const c = price ? costOf(t, price) : null;
    Object.defineProperty(byModel, name, {
      value: {
        cost_usd: c,
        input_tokens: t.input_tokens,
        output_tokens: t.output_tokens,
        cache_read_tokens: t.cache_read_tokens,
        cache_creation_tokens: t.cache_creation_tokens,
      },
      enumerable: true,
    });
    if (c !== null) cost = (cost ?? 0) + c;
  }
  const total = (k: keyof TokenCounts) => reports.reduce((n, r) => n + r.tokens[k], 0);
  return {
    by_model: byModel,
    cost_usd: cost === null ? null : roundUsd(cost),
    input_tokens: total('input_tokens'),
    output_tokens: total('output_tokens'),
    cache_read_tokens: total('cache_read_tokens'),
    cache_creation_tokens: total('cache_creation_tokens'),
  };
}

describe('addUsage', () => {
  it('prices every model from its summed tokens with the table of the last addition', () => {
    fc.assert(
      fc.property(fc.array(report, { minLength: 1, maxLength: 30 }), (reports) => {
        let usage = NO_USAGE;
        for (const r of reports)
          usage = addUsage(usage, r.model, r.tokens, r.doubled ? DOUBLED : DEFAULT_PRICES);
        const want = expected(reports, reports.at(-1)!.doubled ? DOUBLED : DEFAULT_PRICES);
        expect(usage).toEqual(want);
        expect(JSON.stringify(usage)).toBe(JSON.stringify(want));
        expect(usageJson(usage)).toBe(JSON.stringify(want));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves the usage it adds to as it was', () => {
    const before = addUsage(
      NO_USAGE,
      'gpt-5-codex',
      { input_tokens: 1, cache_read_tokens: 0, cache_creation_tokens: 0, output_tokens: 1 },
      DEFAULT_PRICES,
    );
    const text = JSON.stringify(before);
    addUsage(
      before,
      'gpt-5-codex',
      { input_tokens: 5, cache_read_tokens: 0, cache_creation_tokens: 0, output_tokens: 0 },
      DOUBLED,
    );
    expect(JSON.stringify(before)).toBe(text);
  });
});
