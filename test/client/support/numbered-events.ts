import type { Event, FollowItem, GraphHistory, RetentionGap } from '@graph-history/client';
import type { IssuedKey, Services } from '../../conformance/support/services';
import { WatchScript } from '../../conformance/support/watch-events';
import { waitUntil } from '../../support/wait';

/** Each event's number: the session's title or the activity's summary, `n=<i>`. */
export const numberOf = (e: Event): number =>
  Number(String(e.payload.summary ?? e.payload.title).slice(2));

/** Graphs whose events are numbered 0, 1, 2… in the order they were sent. */
export class NumberedEvents {
  /** Events sent so far, per graph key. */
  private readonly sentTo = new Map<string, number>();

  constructor(
    private readonly s: Services,
    private readonly key: IssuedKey,
    private readonly client: GraphHistory,
  ) {}

  /** Ingests `count` more numbered events and waits until the newest is readable. */
  async send(graphKey: string, count: number): Promise<void> {
    const script = new WatchScript(Date.now() - 60 * 60_000, 1);
    let sent = this.sentTo.get(graphKey) ?? 0;
    for (let i = 0; i < count; i++) {
      if (sent === 0) script.session('S', { title: 'n=0' });
      else script.activity('S', `n=${sent}`);
      sent += 1;
    }
    this.sentTo.set(graphKey, sent);
    const events = script.events;
    for (let i = 0; i < events.length; i += 1_000) {
      const res = await this.s.ingest(graphKey, events.slice(i, i + 1_000), this.key.auth);
      if (res.status !== 202) throw new Error(`ingest: ${res.status} ${res.text}`);
    }
    await waitUntil(`event n=${sent - 1} to be readable`, async () => {
      const [newest] = await this.client.events
        .list(`gph_${graphKey}`, { limit: 1 })
        .toArray({ limit: 1 });
      return newest !== undefined && numberOf(newest) === sent - 1;
    });
  }
}

/**
 * Every event yielded once, in order: the numbers run on by one, except across a gap, where the
 * gap names the last event before it and the first after it.
 */
export function expectOnceInOrder(items: FollowItem[]): { events: Event[]; gaps: RetentionGap[] } {
  const events: Event[] = [];
  const gaps: RetentionGap[] = [];
  let previous: Event | undefined;
  let gap: RetentionGap | undefined;
  for (const item of items) {
    if (item.object === 'retention_gap') {
      expect(item.after).toBe(previous?.id);
      gap = item;
      gaps.push(item);
      continue;
    }
    if (gap) {
      expect(item.id).toBe(gap.first_event_id);
      expect(numberOf(item)).toBeGreaterThan(numberOf(previous!) + 1);
    } else if (previous) expect(numberOf(item)).toBe(numberOf(previous) + 1);
    gap = undefined;
    previous = item;
    events.push(item);
  }
  expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  return { events, gaps };
}
