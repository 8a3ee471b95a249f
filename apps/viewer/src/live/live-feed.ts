import type { ShareApi } from '../api/share-api';
import { ApiFailure, type Graph, type GraphEvent } from '../api/types';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

export interface LiveHandlers {
  /** New events (oldest first) and the graph after them; `events` is empty when only time moved (stale). */
  onChange(graph: Graph, events: GraphEvent[]): void;
  /** The position followed was trimmed away: everything must be read again. */
  onGap(): void;
  onStatus(status: LiveStatus): void;
}

const POLL_MS = 1_000;
const MAX_BACKOFF_MS = 8_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Follows a graph from an event on: polls it every second with `If-None-Match` (a 304 costs
 * nothing), and when it changed reads the events after the last one seen. Network errors and 5xx
 * back off and retry by themselves; `signal` stops it.
 */
export async function followGraph(
  api: ShareApi,
  graphId: string,
  after: string | null,
  h: LiveHandlers,
  signal: AbortSignal,
): Promise<void> {
  let etag: string | null = null;
  let last = after;
  let failures = 0;
  h.onStatus('connecting');
  while (!signal.aborted) {
    try {
      const changed = await api.graphIfChanged(graphId, etag);
      if (changed && !signal.aborted) {
        const events = changed.graph.as_of_event_id === last ? [] : await api.events(graphId, last);
        if (signal.aborted) return;
        etag = changed.etag;
        if (events.length) last = events[events.length - 1]!.id;
        h.onChange(changed.graph, events);
      }
      failures = 0;
      h.onStatus('live');
      await sleep(POLL_MS, signal);
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof ApiFailure && err.code === 'outside_retention_window') return h.onGap();
      if (err instanceof ApiFailure && err.status >= 400 && err.status < 500 && err.status !== 429)
        throw err;
      failures++;
      h.onStatus('reconnecting');
      await sleep(Math.min(MAX_BACKOFF_MS, POLL_MS * 2 ** (failures - 1)), signal);
    }
  }
}
