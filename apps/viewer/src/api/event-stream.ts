import type { GraphEvent } from './types';

/** Yielded when the events after the position were trimmed before they were read. */
export interface FollowGap {
  object: 'retention_gap';
}

export type FollowItem = GraphEvent | FollowGap;

/** Connection errors of one EventSource in a row (no open between them) that end it. */
const ERRORS_BEFORE_GIVING_UP = 2;
/** Streams ended by errors in a row (no event between them) before polling takes over. */
const FAILURES_BEFORE_POLLING = 2;
/** How long polling stands in before the stream is tried again. */
const POLLING_SPELL_MS = 30_000;

type Outcome = 'failed' | 'gap' | 'aborted';

/**
 * Each new event after `after`, in order, from the graph's event stream (Server-Sent Events, the
 * session cookie authenticating it). EventSource resumes by itself with Last-Event-ID; a stream
 * that fails FAILURES_BEFORE_POLLING times in a row is replaced by `poll` for a spell, then tried
 * again. A `gap` (the position was trimmed) is yielded and ends the iteration: the reader reloads.
 */
export async function* streamEvents(
  graphId: string,
  after: string | null,
  signal: AbortSignal,
  poll: (after: string | null, signal: AbortSignal) => AsyncIterable<FollowItem>,
  onConnection: (reached: boolean) => void,
): AsyncGenerator<FollowItem> {
  let last = after;
  let failures = 0;
  while (!signal.aborted) {
    if (failures >= FAILURES_BEFORE_POLLING) {
      const spell = AbortSignal.any([signal, AbortSignal.timeout(POLLING_SPELL_MS)]);
      try {
        for await (const item of poll(last, spell)) {
          yield item;
          if (item.object === 'retention_gap') return;
          last = item.id;
        }
      } catch (err) {
        if (!spell.aborted) throw err;
      }
      failures = 0;
      continue;
    }
    const stream = openStream(graphId, last, signal, onConnection);
    let outcome: Outcome;
    try {
      for (;;) {
        const next = await stream.next();
        if (next.done) {
          outcome = next.value;
          break;
        }
        failures = 0;
        yield next.value;
        if (next.value.object === 'retention_gap') return;
        last = next.value.id;
      }
    } finally {
      stream.close();
    }
    if (outcome === 'failed') failures += 1;
  }
}

interface OpenStream {
  next(): Promise<IteratorResult<FollowItem, Outcome>>;
  close(): void;
}

/** One EventSource, as a queue of what it received and how it ended. */
function openStream(
  graphId: string,
  after: string | null,
  signal: AbortSignal,
  onConnection: (reached: boolean) => void,
): OpenStream {
  const query = after ? `?starting_after=${encodeURIComponent(after)}` : '';
  const source = new EventSource(
    `/api/v1/graphs/${encodeURIComponent(graphId)}/events/stream${query}`,
  );
  const items: FollowItem[] = [];
  let outcome: Outcome | null = null;
  let errorsInRow = 0;
  let wake: (() => void) | null = null;
  const push = (item: FollowItem | null, end: Outcome | null = null) => {
    if (item) items.push(item);
    if (end) outcome ??= end;
    wake?.();
  };
  const onAbort = () => push(null, 'aborted');
  signal.addEventListener('abort', onAbort);
  source.onopen = () => {
    errorsInRow = 0;
    onConnection(true);
  };
  source.onmessage = (m: MessageEvent<string>) => push(JSON.parse(m.data) as GraphEvent);
  source.addEventListener('gap', () => push({ object: 'retention_gap' }, 'gap'));
  source.onerror = () => {
    onConnection(false);
    // closed: the answer was not a stream (an error status); else EventSource reconnects itself
    errorsInRow += 1;
    if (source.readyState === EventSource.CLOSED || errorsInRow >= ERRORS_BEFORE_GIVING_UP)
      push(null, 'failed');
  };
  return {
    async next() {
      for (;;) {
        const item = items.shift();
        if (item) return { done: false, value: item };
        if (outcome) return { done: true, value: outcome };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    close() {
      source.close();
      signal.removeEventListener('abort', onAbort);
    },
  };
}
