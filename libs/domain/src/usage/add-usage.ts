import { compareJsonbKeys } from '../stored-json/jsonb-order';
import { costOf, priceOf, roundUsd, type PriceTable } from './model-prices';
import { TOKEN_KINDS, type PricedCounts, type TokenCounts, type Usage } from './usage';

/** Models one usage object names at most; the tokens of any further model count under OTHER_MODELS. */
export const USAGE_MODELS_MAX = 20;
export const OTHER_MODELS = '(other)';

const plus = (a: TokenCounts, b: TokenCounts): TokenCounts => ({
  input_tokens: a.input_tokens + b.input_tokens,
  cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens,
  cache_creation_tokens: a.cache_creation_tokens + b.cache_creation_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
});

const tokensOf = (t: TokenCounts): TokenCounts => {
  const out = {} as TokenCounts;
  for (const kind of TOKEN_KINDS) out[kind] = t[kind];
  return out;
};

/** Counts in jsonb's key order. */
const counts = (cost: number | null, t: TokenCounts): PricedCounts => ({
  cost_usd: cost,
  input_tokens: t.input_tokens,
  output_tokens: t.output_tokens,
  cache_read_tokens: t.cache_read_tokens,
  cache_creation_tokens: t.cache_creation_tokens,
});

const priced = (model: string, tokens: TokenCounts, prices: PriceTable): PricedCounts => {
  const price = model === OTHER_MODELS ? undefined : priceOf(prices, model);
  return counts(price ? costOf(tokens, price) : null, tokens);
};

/** An own property even for a key named `__proto__`, as JSON.parse makes it. */
const put = (out: Record<string, PricedCounts>, key: string, value: PricedCounts): void => {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
};

/**
 * `usage` with `tokens` of `model` added: a new object, `usage` untouched. Every model's cost is
 * priced again from its token counts with `prices`, so a total is always its tokens at the table
 * in force when it last changed. `cost_usd` sums the models that have a price; it is null only
 * when none has one.
 */
export function addUsage(
  usage: Usage,
  model: string,
  tokens: TokenCounts,
  prices: PriceTable,
): Usage {
  const names = Object.keys(usage.by_model);
  const key =
    Object.hasOwn(usage.by_model, model) || names.length < USAGE_MODELS_MAX - 1
      ? model
      : OTHER_MODELS;
  const byModel: Record<string, PricedCounts> = {};
  if (!names.includes(key)) names.push(key);
  names.sort(compareJsonbKeys);
  let cost: number | null = null;
  for (const name of names) {
    const before = Object.hasOwn(usage.by_model, name) ? tokensOf(usage.by_model[name]!) : null;
    const after = name === key ? plus(before ?? ZERO_TOKENS, tokens) : before!;
    const model = priced(name, after, prices);
    put(byModel, name, model);
    if (model.cost_usd !== null) cost = (cost ?? 0) + model.cost_usd;
  }
  return {
    by_model: byModel,
    ...counts(cost === null ? null : roundUsd(cost), plus(tokensOf(usage), tokens)),
  };
}

const ZERO_TOKENS: TokenCounts = {
  input_tokens: 0,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
  output_tokens: 0,
};
