import { DEFAULT_PRICES, priceOf } from '../usage/model-prices';
import { NO_USAGE, TOKEN_KINDS, type Usage } from '../usage/usage';
import type { Reported } from './naive-oracle';

/**
 * `usage` is the plain sum of `reports`: every token kind in total and per model, each model's
 * cost its summed tokens at the default prices (null without a price), and the total cost the
 * sum of the priced models (null when none is priced), to a millionth of a dollar.
 */
export function expectUsageOf(found: Usage | null, reports: Reported[]): void {
  const withTokens = reports.filter((r) => TOKEN_KINDS.some((k) => r.tokens[k] > 0));
  if (withTokens.length === 0) {
    // a node's usage stays null until it reports tokens; a graph's starts at zero
    if (found !== null) expect(found).toEqual(NO_USAGE);
    return;
  }
  const usage = found!;
  const byModel = new Map<string, Record<string, number>>();
  for (const r of reports) {
    if (TOKEN_KINDS.every((k) => r.tokens[k] === 0)) continue;
    const sums = byModel.get(r.model) ?? Object.fromEntries(TOKEN_KINDS.map((k) => [k, 0]));
    for (const k of TOKEN_KINDS) sums[k]! += r.tokens[k];
    byModel.set(r.model, sums);
  }
  expect(Object.keys(usage.by_model).sort()).toEqual([...byModel.keys()].sort());
  let total: number | null = byModel.size === 0 ? 0 : null;
  for (const kind of TOKEN_KINDS)
    expect(usage[kind]).toBe(reports.reduce((n, r) => n + r.tokens[kind], 0));
  for (const [model, sums] of byModel) {
    const got = usage.by_model[model]!;
    for (const kind of TOKEN_KINDS) expect(got[kind]).toBe(sums[kind]);
    const price = priceOf(DEFAULT_PRICES, model);
    if (!price) {
      expect(got.cost_usd).toBeNull();
      continue;
    }
    const cost =
      (sums.input_tokens! * price.input +
        sums.cache_read_tokens! * price.cache_read +
        sums.cache_creation_tokens! * price.cache_write +
        sums.output_tokens! * price.output) /
      1e6;
    expect(Math.abs(got.cost_usd! - cost)).toBeLessThan(1e-6);
    total = (total ?? 0) + cost;
  }
  if (total === null) expect(usage.cost_usd).toBeNull();
  else expect(Math.abs(usage.cost_usd! - total)).toBeLessThan(1e-5);
}
