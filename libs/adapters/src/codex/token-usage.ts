import { hasTokens, LIMITS, type TokenCounts } from '@graph-history/domain';
import { cleanText } from '../text';
import { UNKNOWN_MODEL, tokenCount as count } from '../token-count';
import type { Emitter } from './emitter';
import { isObject, str } from './rollout-line';
import type { ThreadMemo, TokenTotals } from './state';

type Json = Record<string, unknown>;

/** `info.total_token_usage` of a `token_count` event_msg (codex-rs protocol TokenUsage). */
function totalsOf(p: Json): TokenTotals | undefined {
  const info = p['info'];
  const total = isObject(info) ? info['total_token_usage'] : undefined;
  if (!isObject(total)) return undefined;
  return {
    input: count(total['input_tokens']),
    cached: count(total['cached_input_tokens']),
    output: count(total['output_tokens']),
  };
}

/**
 * Tokens used since `before`. Codex's input counts include the cached part; its output counts
 * include reasoning. Totals that went down (a resumed thread whose count started again) are
 * taken whole.
 */
function delta(now: TokenTotals, before: TokenTotals | undefined): TokenCounts {
  const reset =
    before === undefined ||
    now.input < before.input ||
    now.cached < before.cached ||
    now.output < before.output;
  const from = reset ? { input: 0, cached: 0, output: 0 } : before;
  const cached = now.cached - from.cached;
  const clamp = (n: number) => Math.min(Math.max(n, 0), LIMITS.tokens);
  return {
    input_tokens: clamp(now.input - from.input - cached),
    cache_read_tokens: clamp(cached),
    cache_creation_tokens: 0,
    output_tokens: clamp(now.output - from.output),
  };
}

/** A `turn_context` names the model of the turns that follow. */
export function noteTurnContext(memo: ThreadMemo, p: Json): void {
  const model = str(p['model']);
  if (model !== undefined) memo.model = cleanText(model, LIMITS.shortText);
}

/** A copied line of a fork's history: its totals are the baseline the fork's own count from. */
export function noteCopiedTotals(memo: ThreadMemo, p: Json): void {
  if (str(p['type']) !== 'token_count') return;
  const totals = totalsOf(p);
  if (totals) memo.tokenTotals = totals;
}

/** A `token_count` event: reports the tokens used since the thread's previous one. */
export function tokenCount(memo: ThreadMemo, p: Json, emit: Emitter): void {
  const totals = totalsOf(p);
  if (!totals) return;
  const tokens = delta(totals, memo.tokenTotals);
  memo.tokenTotals = totals;
  // Codex names no model before its first `turn_context`
  // keyed by the line (its next key): a token_count has no id of its own
  if (hasTokens(tokens)) {
    emit.usage(memo, emit.nextKey(), { model: memo.model ?? UNKNOWN_MODEL, ...tokens });
  }
}
