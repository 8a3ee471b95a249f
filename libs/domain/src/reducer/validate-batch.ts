import { createdTooFarAhead } from '../created-window';
import { parseWatchEvent, Rejection, WatchEvent } from '../watch-event';
import { checkRefs, createdRefStatus, isCreateEvent, RefStatus, RefView } from './ref-checks';

export type BatchValidation =
  | { ok: true; events: WatchEvent[]; refs: Map<string, RefStatus> }
  | { ok: false; index: number; rejection: Rejection };

/**
 * Parses and checks a batch in order against `view` overlaid with the batch's own earlier events,
 * refusing a `created` too far ahead of `now` (the receiving server's clock). On success `refs`
 * holds every ref the batch creates or ends, with its state after the batch.
 */
export function validateBatch(view: RefView, raws: unknown[], now: number): BatchValidation {
  const refs = new Map<string, RefStatus>();
  const overlay: RefView = { get: (ref) => refs.get(ref) ?? view.get(ref) };
  const events: WatchEvent[] = [];
  for (let index = 0; index < raws.length; index++) {
    const parsed = parseWatchEvent(raws[index]);
    if (!parsed.ok) return { ok: false, index, rejection: parsed.rejection };
    const ev = parsed.event;
    const rejection = createdTooFarAhead(ev.created, now) ?? checkRefs(overlay, ev);
    if (rejection) return { ok: false, index, rejection };
    if (isCreateEvent(ev)) refs.set(ev.node, createdRefStatus(overlay, ev));
    else if (ev.type === 'ended') refs.set(ev.node, { ...overlay.get(ev.node)!, ended: true });
    events.push(ev);
  }
  return { ok: true, events, refs };
}
