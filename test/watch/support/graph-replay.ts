import {
  type GraphState,
  type NodeRecord,
  type WatchEvent,
  applyEvent,
  createGraphState,
  parseWatchEvent,
  validateBatch,
} from '@graph-history/domain';

/** Applies a stream of events with the real reducer (which throws on any event ingest refuses). */
export function replay(events: readonly WatchEvent[]): GraphState {
  const state = createGraphState(1);
  events.forEach((ev, i) => applyEvent(state, ev, i + 1));
  return state;
}

export function nodeOf(state: GraphState, ref: string): NodeRecord {
  const no = state.byRef.get(ref);
  const node = no === undefined ? undefined : state.nodes.get(no);
  if (!node) throw new Error(`no node ${ref}`);
  return node;
}

/** Checks the whole stream the way the ingest endpoint does: shape of each event, then refs in order. */
export function expectValidStream(events: readonly WatchEvent[]): void {
  for (const ev of events) expect(parseWatchEvent(ev)).toMatchObject({ ok: true });
  const verdict = validateBatch({ get: () => undefined }, [...events], Date.now());
  if (!verdict.ok)
    throw new Error(
      `event ${verdict.index} (${JSON.stringify(events[verdict.index])}) refused: ${verdict.rejection.message}`,
    );
  expect(new Set(events.map((e) => e.key)).size).toBe(events.length);
}
