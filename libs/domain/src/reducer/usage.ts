import { NodeRecord } from '../node';
import { addUsage } from '../usage/add-usage';
import { hasTokens, NO_USAGE, type TokenCounts } from '../usage/usage';
import { EventOf } from '../watch-event';
import { EventContext } from './event-context';

export const reportedTokens = (p: EventOf<'usage.reported'>['payload']): TokenCounts => ({
  input_tokens: p.input_tokens,
  cache_read_tokens: p.cache_read_tokens ?? 0,
  cache_creation_tokens: p.cache_creation_tokens ?? 0,
  output_tokens: p.output_tokens,
});

/**
 * Adds the reported tokens to the node's `usage`, to the `descendant_usage` of the node and of
 * every ancestor, and to the graph's usage. A report of no tokens changes nothing but
 * `last_event`.
 */
export function reportUsage(
  ctx: EventContext,
  rec: NodeRecord,
  ev: EventOf<'usage.reported'>,
): void {
  const tokens = reportedTokens(ev.payload);
  if (!hasTokens(tokens)) return;
  const { model } = ev.payload;
  const { prices, counts } = ctx.state;
  rec.usage = addUsage(rec.usage ?? NO_USAGE, model, tokens, prices);
  for (let no: number | null = rec.no; no !== null; no = ctx.node(no).parentNo) {
    const node = ctx.edit(no);
    node.descendantUsage = addUsage(node.descendantUsage ?? NO_USAGE, model, tokens, prices);
  }
  counts.usage = addUsage(counts.usage ?? NO_USAGE, model, tokens, prices);
}
