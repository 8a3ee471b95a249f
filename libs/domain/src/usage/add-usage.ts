import { compareJsonbKeys, putOwn } from '../stored-json/jsonb-order';
import { costOf, priceOf, roundUsd, type PriceTable } from './model-prices';
import { type PricedCounts, type TokenCounts, type Usage } from './usage';

/** Models one usage object names at most; the tokens of any further model count under OTHER_MODELS. */
export const USAGE_MODELS_MAX = 20;
export const OTHER_MODELS = '(other)';

const plus = (a: TokenCounts, b: TokenCounts): TokenCounts => ({
  input_tokens: a.input_tokens + b.input_tokens,
  cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens,
  cache_creation_tokens: a.cache_creation_tokens + b.cache_creation_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
});

/** Counts in jsonb's key order. */
const counts = (cost: number | null, t: TokenCounts): PricedCounts => ({
  cost_usd: cost,
  input_tokens: t.input_tokens,
  output_tokens: t.output_tokens,
  cache_read_tokens: t.cache_read_tokens,
  cache_creation_tokens: t.cache_creation_tokens,
});

const costAt = (model: string, tokens: TokenCounts, prices: PriceTable): number | null => {
  const price = model === OTHER_MODELS ? undefined : priceOf(prices, model);
  return price ? costOf(tokens, price) : null;
};

/**
 * `entry` priced again: itself when its cost stays the same (an entry made by `counts`, or read
 * back from jsonb, has its keys in the order `counts` gives them).
 */
function repriced(name: string, entry: PricedCounts, prices: PriceTable): PricedCounts {
  const cost = costAt(name, entry, prices);
  return cost === entry.cost_usd ? entry : counts(cost, entry);
}

/** `names` in jsonb's order: themselves when they are. */
function inJsonbOrder(names: string[]): string[] {
  for (let i = 1; i < names.length; i++)
    if (compareJsonbKeys(names[i - 1]!, names[i]!) > 0) return names.sort(compareJsonbKeys);
  return names;
}

/** `names` (in jsonb's order) with `name` in its place. */
function withName(names: readonly string[], name: string): string[] {
  let i = names.length;
  while (i > 0 && compareJsonbKeys(names[i - 1]!, name) > 0) i--;
  return [...names.slice(0, i), name, ...names.slice(i)];
}

/**
 * `usage` with `tokens` of `model` added: a new object, `usage` untouched. Every model's cost is
 * priced again from its token counts with `prices`, so a total is always its tokens at the table
 * in force when it last changed; a model whose counts and cost stay the same keeps its entry.
 * `cost_usd` sums the models that have a price, in jsonb's order; it is null only when none has one.
 */
export function addUsage(
  usage: Usage,
  model: string,
  tokens: TokenCounts,
  prices: PriceTable,
): Usage {
  const names = inJsonbOrder(Object.keys(usage.by_model));
  const has = Object.hasOwn(usage.by_model, model);
  const key = has || names.length < USAGE_MODELS_MAX - 1 ? model : OTHER_MODELS;
  const added = !has && !Object.hasOwn(usage.by_model, key);
  const byModel: Record<string, PricedCounts> = {};
  let cost: number | null = null;
  for (const name of added ? withName(names, key) : names) {
    // read only own entries: a new key may be named `__proto__`
    const before = added && name === key ? undefined : usage.by_model[name]!;
    let entry: PricedCounts;
    if (name !== key) entry = repriced(name, before!, prices);
    else {
      const sum = before ? plus(before, tokens) : tokens;
      entry = counts(costAt(name, sum, prices), sum);
    }
    putOwn(byModel, name, entry);
    if (entry.cost_usd !== null) cost = (cost ?? 0) + entry.cost_usd;
  }
  return {
    by_model: byModel,
    ...counts(cost === null ? null : roundUsd(cost), plus(usage, tokens)),
  };
}
