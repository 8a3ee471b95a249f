import { z } from 'zod';
import defaultTable from './model-prices.json';
import type { TokenCounts } from './usage';

/** USD per million tokens of each kind, for one model. */
export interface ModelPrice {
  input: number;
  cache_read: number;
  cache_write: number;
  output: number;
}

/** Model name -> its price. Build it with parsePriceTable. */
export type PriceTable = ReadonlyMap<string, ModelPrice>;

const usdPerMillion = z.number().finite().nonnegative();

const priceTableFile = z.strictObject({
  description: z.string().optional(),
  models: z.record(
    z.string().min(1).max(200),
    z.strictObject({
      input: usdPerMillion,
      cache_read: usdPerMillion,
      cache_write: usdPerMillion,
      output: usdPerMillion,
      as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD'),
      source: z.string().url(),
      note: z.string().optional(),
    }),
  ),
});

/** The table a price file holds (the shape of model-prices.json); throws naming what is wrong. */
export function parsePriceTable(raw: unknown): PriceTable {
  const parsed = priceTableFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid price table at ${issue.path.join('.') || 'top'}: ${issue.message}.`);
  }
  return new Map(
    Object.entries(parsed.data.models).map(([model, p]) => [
      model,
      { input: p.input, cache_read: p.cache_read, cache_write: p.cache_write, output: p.output },
    ]),
  );
}

/** The table kept in the repository (libs/domain/src/usage/model-prices.json). */
export const DEFAULT_PRICES: PriceTable = parsePriceTable(defaultTable);

/** A dated snapshot suffix providers add to a model name: `-20250929` or `-2025-08-07`. */
const DATE_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2})$/;

/** Each table's answers for the names it was asked, up to NAMES_KEPT of them. */
const found = new WeakMap<PriceTable, Map<string, ModelPrice | undefined>>();
const NAMES_KEPT = 1_000;

/** The price of `model`: its own entry, else the entry of its name without a date suffix. */
export function priceOf(table: PriceTable, model: string): ModelPrice | undefined {
  let answers = found.get(table);
  if (answers === undefined) found.set(table, (answers = new Map()));
  const known = answers.get(model);
  if (known !== undefined || answers.has(model)) return known;
  const price = table.get(model) ?? table.get(model.replace(DATE_SUFFIX, ''));
  if (answers.size < NAMES_KEPT) answers.set(model, price);
  return price;
}

/** Rounds to a millionth of a dollar, so sums do not carry float noise. */
export const roundUsd = (usd: number): number => Math.round(usd * 1e6) / 1e6;

/** Estimated cost of `tokens` at `price`, in USD. */
export const costOf = (tokens: TokenCounts, price: ModelPrice): number =>
  roundUsd(
    (tokens.input_tokens * price.input +
      tokens.cache_read_tokens * price.cache_read +
      tokens.cache_creation_tokens * price.cache_write +
      tokens.output_tokens * price.output) /
      1e6,
  );
