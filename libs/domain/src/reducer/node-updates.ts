import { NodeRecord } from '../node';
import { EventOf } from '../watch-event';
import { EventContext } from './event-context';
import { headlineOf } from './text';

export function setSummary(rec: NodeRecord, summary: string | undefined): void {
  if (summary === undefined) return;
  rec.summary = summary;
  rec.headline = headlineOf(summary);
}

export function setStatus(rec: NodeRecord, ev: EventOf<'status'>): void {
  rec.state = ev.payload.state;
  setSummary(rec, ev.payload.summary);
}

/** Only marks the node alive (done for every event); a summary refreshes the headline alone. */
export function noteActivity(rec: NodeRecord, ev: EventOf<'activity'>): void {
  if (ev.payload.summary !== undefined) rec.headline = headlineOf(ev.payload.summary);
}

export function setTitle(rec: NodeRecord, ev: EventOf<'title'>): void {
  rec.title = ev.payload.title;
}

export function raiseAttention(
  ctx: EventContext,
  rec: NodeRecord,
  ev: EventOf<'attention.raised'>,
): void {
  rec.attention = {
    reason: ev.payload.reason,
    message: ev.payload.message ?? null,
    since: ctx.created,
  };
}

export function clearAttention(rec: NodeRecord): void {
  rec.attention = null;
}
