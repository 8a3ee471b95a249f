import type { ChangeEntry, EventSource } from '../event';
import type { PublicEvent } from '../public/event.schema';
import type { ListedEvent } from '../public-event';

/**
 * What an event row holds of an event: `source`, `payload` and `changes` as jsonb (rows written
 * before migration 0009), or null and its public JSON (storedEventJson).
 */
export interface StoredEventColumns {
  seq: number;
  type: string;
  created: number;
  nodeNo: number;
  source: EventSource | null;
  payload: Record<string, unknown> | null;
  changes: ChangeEntry[] | null;
  json: string | null;
}

/**
 * The event a row stores, whichever way. From the JSON, payload and change values are in jsonb's
 * key order (see storedEventJson) and presentEvent orders the rest, so both present the same.
 */
export function storedListedEvent(s: StoredEventColumns): ListedEvent {
  const { seq, type, created, nodeNo } = s;
  if (s.source !== null && s.payload !== null && s.changes !== null)
    return { seq, type, created, nodeNo, source: s.source, payload: s.payload, changes: s.changes };
  if (s.json === null) throw new Error(`Event ${seq} with neither its jsonb columns nor its JSON.`);
  const e = JSON.parse(s.json) as PublicEvent;
  return { seq, type, created, nodeNo, source: e.source, payload: e.payload, changes: e.changes };
}
