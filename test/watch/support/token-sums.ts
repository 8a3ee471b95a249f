import type { SourceLine } from '@graph-history/adapters';
import {
  applyEvent,
  createGraphState,
  type GraphState,
  type TokenCounts,
  type WatchEvent,
} from '@graph-history/domain';

/** Token sums the usage tests compute from raw files, to compare with what the graph holds. */
export const ZERO: TokenCounts = {
  input_tokens: 0,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
  output_tokens: 0,
};

export const plus = (a: TokenCounts, b: TokenCounts): TokenCounts => ({
  input_tokens: a.input_tokens + b.input_tokens,
  cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens,
  cache_creation_tokens: a.cache_creation_tokens + b.cache_creation_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
});

/** The four counts of a usage object (a null one: zeros). */
export const tokensOf = (u: TokenCounts | null | undefined): TokenCounts => plus(ZERO, u ?? ZERO);

export const nonZero = (t: TokenCounts): boolean => Object.values(t).some((n) => n > 0);

export interface Converter<S> {
  initialState(): S;
  toEvents(s: S, l: SourceLine[]): { events: WatchEvent[] };
  flush(s: S): { events: WatchEvent[] };
}

/** Converts all lines with one state, as `watch` does, then flushes. */
export function convert<S>(adapter: Converter<S>, lines: SourceLine[]): WatchEvent[] {
  const state = adapter.initialState();
  return [...adapter.toEvents(state, lines).events, ...adapter.flush(state).events];
}

/** Applies events as ingest does: an event whose key was stored before is a duplicate. */
export function ingest(events: WatchEvent[], state = createGraphState(1)): GraphState {
  const keys = new Set<string>();
  for (const ev of events) {
    if (keys.has(ev.key)) continue;
    keys.add(ev.key);
    applyEvent(state, ev, state.lastSeq + 1);
  }
  return state;
}
