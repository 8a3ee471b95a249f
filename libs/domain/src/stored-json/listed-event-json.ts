import type { PublicEvent } from '../public/event.schema';
import type { ListedEvent } from '../public-event';

/**
 * The event a row stores: its columns (`seq`, `type`, `created`, `nodeNo`) and its public JSON
 * (storedEventJson), which holds the rest. Payload and change values come in the JSON's order.
 */
export function listedEventFromJson(
  columns: Pick<ListedEvent, 'seq' | 'type' | 'created' | 'nodeNo'>,
  json: string,
): ListedEvent {
  const { seq, type, created, nodeNo } = columns;
  const e = JSON.parse(json) as PublicEvent;
  return { seq, type, created, nodeNo, source: e.source, payload: e.payload, changes: e.changes };
}
