/** Tokens of one kind of use: what a `usage.reported` event adds. */
export interface TokenCounts {
  input_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  output_tokens: number;
}

export const TOKEN_KINDS = [
  'input_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'output_tokens',
] as const satisfies readonly (keyof TokenCounts)[];

/** Token counts with their estimated cost in USD; `cost_usd` null for a model without a price. */
export interface PricedCounts extends TokenCounts {
  cost_usd: number | null;
}

/**
 * A Node's `usage` or `descendant_usage`, or a Graph's `usage`: the token counts, their
 * estimated cost, and the same per model. Every object's keys are in jsonb's order (see
 * compareJsonbKeys), the order nested objects of a stored Node have (storedNodeJson).
 */
export interface Usage extends PricedCounts {
  by_model: Record<string, PricedCounts>;
}

export const NO_USAGE: Usage = Object.freeze({
  by_model: Object.freeze({}) as Record<string, PricedCounts>,
  cost_usd: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
}) as Usage;

export const hasTokens = (t: TokenCounts): boolean =>
  t.input_tokens > 0 ||
  t.cache_read_tokens > 0 ||
  t.cache_creation_tokens > 0 ||
  t.output_tokens > 0;

/** Sum of every token kind. */
export const totalTokens = (t: TokenCounts): number =>
  t.input_tokens + t.cache_read_tokens + t.cache_creation_tokens + t.output_tokens;
