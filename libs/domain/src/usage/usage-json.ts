import { compareJsonbKeys as compareKeys } from '../stored-json/jsonb-order';
import type { PricedCounts, Usage } from './usage';

const countsJson = (c: PricedCounts): string =>
  `"cost_usd":${c.cost_usd === null ? 'null' : c.cost_usd},"input_tokens":${c.input_tokens},` +
  `"output_tokens":${c.output_tokens},"cache_read_tokens":${c.cache_read_tokens},` +
  `"cache_creation_tokens":${c.cache_creation_tokens}`;

/**
 * A usage object's JSON with its keys in jsonb's order (as the reducer builds it),
 * whatever the order of the object it is given (one read back from jsonb has its own).
 */
export function usageJson(u: Usage): string {
  const models = Object.keys(u.by_model).sort(compareKeys);
  let byModel = '';
  for (const m of models) byModel += `,${JSON.stringify(m)}:{${countsJson(u.by_model[m]!)}}`;
  return `{"by_model":{${byModel.slice(1)}},${countsJson(u)}}`;
}
