import type { ShareApi } from '../api/share-api';
import type { GraphEvent } from '../api/types';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

export interface LiveHandlers {
  /** New events, oldest first: those the client yielded together (one page of the API). */
  onEvents(events: GraphEvent[]): void;
  /** The position followed was trimmed away before it was read: everything must be read again. */
  onGap(): void;
}

/**
 * Follows a share from an event on with the client's `events.follow` (conditional polls, a 304
 * when nothing is new), handing over the events that arrive together as one batch.
 */
export async function followGraph(
  api: ShareApi,
  graphId: string,
  after: string | null,
  h: LiveHandlers,
  signal: AbortSignal,
): Promise<void> {
  let batch: GraphEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!batch.length || signal.aborted) return;
    const events = batch;
    batch = [];
    h.onEvents(events);
  };
  for await (const item of api.follow(graphId, after, signal)) {
    if (item.object === 'retention_gap') {
      flush();
      return h.onGap();
    }
    batch.push(item);
    timer ??= setTimeout(flush, 0);
  }
  flush();
}
