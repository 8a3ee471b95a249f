import { Type, type Static } from '@sinclair/typebox';
import { closed, int, ref } from './json-schema';

/** In jsonb's key order, the order a stored object has on the wire. */
const tokenFields = {
  input_tokens: int({ description: 'Input tokens read fresh (not from a prompt cache).' }),
  output_tokens: int({ description: 'Output tokens, reasoning included.' }),
  cache_read_tokens: int({ description: 'Input tokens read from a prompt cache.' }),
  cache_creation_tokens: int({ description: 'Input tokens written to a prompt cache.' }),
};

const costUsd = (description: string) =>
  Type.Unsafe<number | null>({ type: ['number', 'null'], description });

/** Token counts of one model with their estimated cost. */
export const UsageCountsSchema = closed({
  ...tokenFields,
  cost_usd: costUsd(
    'Estimated cost in USD from the price table; null when the model has no price.',
  ),
});

const totals = {
  cost_usd: costUsd(
    'Estimated cost in USD: the sum over the models that have a price; null only when none has.',
  ),
  ...tokenFields,
};

/** A Graph's `usage`: the token counts and their estimated cost. */
export const UsageTotalsSchema = closed(totals);

/** A Node's `usage`/`descendant_usage`: the totals, and the same per model. */
export const UsageSchema = closed({
  by_model: Type.Object(
    {},
    {
      additionalProperties: ref<Static<typeof UsageCountsSchema>>('UsageCounts'),
      description: 'The same counts per model name.',
    },
  ),
  ...totals,
});
