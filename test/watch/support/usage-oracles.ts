import type { TokenCounts } from '@graph-history/domain';
import { ZERO, plus } from './token-sums';

/**
 * Usage computed from raw Gemini CLI and opencode records without the adapters, to compare with
 * what the graph holds.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** gemini-cli's TokensSummary in the graph's kinds: `cached` is part of `input`. */
export const geminiTokens = (t: Json): TokenCounts => ({
  input_tokens: t.input - t.cached + (t.tool ?? 0),
  cache_read_tokens: t.cached,
  cache_creation_tokens: 0,
  output_tokens: t.output + (t.thoughts ?? 0),
});

/** A chat's gemini messages with tokens, by id: the last copy of each (a message is re-written). */
export function geminiMessages(records: Json[]): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const record of records) {
    const messages: Json[] = record.$set ? (record.$set.messages ?? []) : [record];
    for (const m of messages) if (m.type === 'gemini' && m.tokens) out.set(m.id, m);
  }
  return out;
}

export const geminiSum = (messages: Map<string, Json>): TokenCounts =>
  [...messages.values()].reduce<TokenCounts>((t, m) => plus(t, geminiTokens(m.tokens)), ZERO);

/** opencode's assistant tokens in the graph's kinds: `input` is fresh, reasoning is output. */
export const opencodeTokens = (t: Json): TokenCounts => ({
  input_tokens: t.input,
  cache_read_tokens: t.cache.read,
  cache_creation_tokens: t.cache.write,
  output_tokens: t.output + t.reasoning,
});

export const completedReply = (data: Json): boolean =>
  data.role === 'assistant' && data.time?.completed !== undefined;

/** A session's completed assistant messages among message rows, by id (the last version). */
export function opencodeMessages(rows: Json[], session: string): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const row of rows) {
    if (row.session_id === session && completedReply(row.data)) out.set(row.id, row.data);
  }
  return out;
}

export const opencodeSum = (messages: Map<string, Json>): TokenCounts =>
  [...messages.values()].reduce<TokenCounts>((t, m) => plus(t, opencodeTokens(m.tokens)), ZERO);
