import { compareJsonbKeys } from '../stored-json/jsonb-order';
import { jsonOf } from '../stored-json/json-of';
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

const COUNT_KEYS = [
  'cost_usd',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
] as const satisfies readonly (keyof PricedCounts)[];
const COUNT_KEYS_JSON = COUNT_KEYS.map((k) => `"${k}":`);

/** The members of `JSON.stringify(counts(c))`, without the braces. */
function countsMembers(c: PricedCounts): string {
  let json = '';
  for (let i = 0; i < COUNT_KEYS.length; i++) {
    const text = jsonOf(c[COUNT_KEYS[i]!]);
    if (text !== undefined) json += (json === '' ? '' : ',') + COUNT_KEYS_JSON[i]! + text;
  }
  return json;
}

/** The JSON of model names met over and over, up to NAMES_KEPT of them. */
const nameJson = new Map<string, string>();
const NAMES_KEPT = 1_000;
function jsonOfName(name: string): string {
  let json = nameJson.get(name);
  if (json === undefined) {
    json = JSON.stringify(name);
    if (nameJson.size < NAMES_KEPT) nameJson.set(name, json);
  }
  return json;
}

/** `by_model`'s names in the order canonicalUsage gives them (the order they have when built). */
function modelNames(u: Usage): string[] {
  const names = Object.keys(u.by_model);
  for (let i = 1; i < names.length; i++)
    if (compareJsonbKeys(names[i - 1]!, names[i]!) > 0)
      return Object.keys(canonicalUsage(u).by_model);
  return names;
}

/** The totals of a usage (a Graph's `usage`): its counts without `by_model`, in jsonb's order. */
export const usageTotals = (u: PricedCounts): PricedCounts => counts(u);

/** `JSON.stringify(usageTotals(u))`. */
export const usageTotalsJson = (u: PricedCounts): string => `{${countsMembers(u)}}`;

/** `JSON.stringify(canonicalUsage(u))`, written out without the copy. */
export function usageJson(u: Usage): string {
  let models = '';
  for (const name of modelNames(u))
    models += `${models === '' ? '' : ','}${jsonOfName(name)}:{${countsMembers(u.by_model[name]!)}}`;
  const members = countsMembers(u);
  return `{"by_model":{${models}}${members === '' ? '' : ','}${members}}`;
}
