import type { WatchEvent } from '@graph-history/domain';

/**
 * A batch's events as the inbox stores them (their JSON texts) and what each weighs in bytes:
 * the size counted against the account's bytes quota while the event is held.
 */
export interface StoredEventBodies {
  texts: string[];
  bytes: number[];
  total: number;
}

export function storedEventBodies(events: readonly WatchEvent[]): StoredEventBodies {
  const texts = events.map((e) => JSON.stringify(e));
  const bytes = texts.map((t) => Buffer.byteLength(t));
  return { texts, bytes, total: bytes.reduce((sum, b) => sum + b, 0) };
}
