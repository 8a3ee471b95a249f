import { compareJsonbKeys } from '../stored-json/jsonb-order';
import type { PricedCounts, Usage } from './usage';

const counts = (c: PricedCounts): PricedCounts => ({
  cost_usd: c.cost_usd,
  input_tokens: c.input_tokens,
  output_tokens: c.output_tokens,
  cache_read_tokens: c.cache_read_tokens,
  cache_creation_tokens: c.cache_creation_tokens,
});

/**
 * A copy of a usage object with its keys in jsonb's order (the order the reducer builds it in),
 * whatever the order of the one given (one read back from jsonb has its own).
 */
export function canonicalUsage(u: Usage): Usage {
  const byModel: Record<string, PricedCounts> = {};
  for (const m of Object.keys(u.by_model).sort(compareJsonbKeys))
    Object.defineProperty(byModel, m, {
      value: counts(u.by_model[m]!),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return { by_model: byModel, ...counts(u) };
}

/** The JSON of canonicalUsage(u). */
export const usageJson = (u: Usage): string => JSON.stringify(canonicalUsage(u));
