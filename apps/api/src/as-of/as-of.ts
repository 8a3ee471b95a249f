import { decodeId, sealedIdOf } from '@graph-history/domain';
import { parameterInvalid, resourceMissing } from '@graph-history/http';
import { QueryParams } from '../query/query-params';
import { quote } from '../query/query-values';

/** What `as_of` asked for: now, just after an event, or the state at a time. */
export type AsOf =
  | { kind: 'now' }
  | { kind: 'event'; graphId: number; seq: number; id: string }
  | { kind: 'time'; time: number };

/** Reads `as_of`: all digits is a time in ms, `evt_…` an event id, anything else is invalid. */
export function readAsOf(q: QueryParams): AsOf {
  const raw = q.scalar('as_of');
  if (raw === undefined) return { kind: 'now' };
  if (/^\d+$/.test(raw)) {
    // any number of digits is a time; 17 and more (leading zeros aside) are millennia ahead
    if (raw.replace(/^0+/, '').length > 16)
      throw parameterInvalid(
        'as_of',
        `as_of ${quote(raw)} is in the future; pass a time up to now, or leave it out to read now.`,
      );
    return { kind: 'time', time: Number(raw) };
  }
  if (raw.startsWith('evt_')) {
    const id = decodeId('evt', raw);
    if (!id) throw resourceMissing('as_of', `No such event: ${quote(raw)}.`);
    // an id of the older, readable form is answered with the event's id (as_of_event_id)
    return { kind: 'event', graphId: id.graphId, seq: id.n, id: sealedIdOf('evt', raw, id) };
  }
  throw parameterInvalid(
    'as_of',
    `as_of must be an event id (evt_…) or a time in Unix milliseconds; got ${quote(raw)}.${asMilliseconds(raw)}`,
  );
}

/** For a date and time (ISO 8601 with a zone), the as_of that means it: " Use as_of=…". */
function asMilliseconds(raw: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(raw)) return '';
  const ms = Date.parse(raw);
  return Number.isNaN(ms) || ms < 0 ? '' : ` For ${raw}, use as_of=${ms}.`;
}
