import { invalidEventsBody, unknownBodyField } from './ingest-errors';
import { MAX_EVENTS_PER_BATCH } from './ingest-limits';

/** The raw events of a request body `{ "events": [...] }`, or the 400 that explains the shape. */
export function readEventsBody(body: unknown): unknown[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidEventsBody();
  const extra = Object.keys(body).find((k) => k !== 'events');
  if (extra !== undefined) throw unknownBodyField(extra);
  const events = (body as { events?: unknown }).events;
  if (!Array.isArray(events) || events.length < 1 || events.length > MAX_EVENTS_PER_BATCH)
    throw invalidEventsBody();
  return events;
}
