import {
  type Event,
  type FetchLike,
  type FollowItem,
  GraphHistory,
  type RetentionGap,
} from '@graph-history/client';
import { type IssuedKey, Services } from '../conformance/support/services';
import { WatchScript } from '../conformance/support/watch-events';
import { waitUntil } from '../support/wait';

/** Each event's number: the session's title or the activity's summary, `n=<i>`. */
const numberOf = (e: Event): number =>
  Number(String(e.payload.summary ?? e.payload.title).slice(2));

/** events.follow while events are ingested and retention trims, against the started services. */
describe('client: events.follow', () => {
  let s: Services;
  let key: IssuedKey;
  /** Events sent so far, per graph key. */
  const sentTo = new Map<string, number>();
  const statuses: number[] = [];
  const counting: FetchLike = async (url, init) => {
    const res = await fetch(url, init);
    if (url.includes('/events')) statuses.push(res.status);
    return res;
  };
  let client: GraphHistory;
  /** The first event of gph_live, trimmed by the first test. */
  let liveFirstId = '';

  /** Ingests `count` more numbered events and waits until the newest is readable. */
  async function send(graphKey: string, count: number): Promise<void> {
    const script = new WatchScript(Date.now() - 60 * 60_000, 1);
    let sent = sentTo.get(graphKey) ?? 0;
    for (let i = 0; i < count; i++) {
      if (sent === 0) script.session('S', { title: 'n=0' });
      else script.activity('S', `n=${sent}`);
      sent += 1;
    }
    sentTo.set(graphKey, sent);
    const events = script.events;
    for (let i = 0; i < events.length; i += 1_000) {
      const res = await s.ingest(graphKey, events.slice(i, i + 1_000), key.auth);
      if (res.status !== 202) throw new Error(`ingest: ${res.status} ${res.text}`);
    }
    await waitUntil(`event n=${sent - 1} to be readable`, async () => {
      const [newest] = await client.events
        .list(`gph_${graphKey}`, { limit: 1 })
        .toArray({ limit: 1 });
      return newest !== undefined && numberOf(newest) === sent - 1;
    });
  }

  beforeAll(async () => {
    s = await Services.start();
    key = await s.createKey('follow');
    client = new GraphHistory({ apiKey: key.key, baseUrl: s.apiBaseUrl, fetch: counting });
  }, 90_000);
  afterAll(() => s?.stop());

  /**
   * Every event yielded once, in order: the numbers run on by one, except across a gap, where the
   * gap names the last event before it and the first after it.
   */
  function expectOnceInOrder(items: FollowItem[]): { events: Event[]; gaps: RetentionGap[] } {
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

  it('yields each new event once, in order, reports a trimmed position as a gap, and stops on abort', async () => {
    await send('live', 50);
    const stop = new AbortController();
    const items: FollowItem[] = [];
    let trimmed = false;
    let sending: Promise<void> = Promise.resolve();
    for await (const item of client.events.follow('gph_live', {
      after: null,
      signal: stop.signal,
      pageSize: 100,
      minIntervalMs: 20,
      maxIntervalMs: 200,
    })) {
      items.push(item);
      if (item.object === 'event' && numberOf(item) === 49 && !trimmed) {
        trimmed = true;
        // While the follower holds n=49 as its position, 2,500 more arrive and retention cuts
        // the history to the newest 1,000: n=49 is trimmed before it asks for what follows.
        await send('live', 2_500);
      }
      if (item.object === 'event' && numberOf(item) === 2_549) {
        // Now caught up: events sent while it polls arrive as they come.
        sending = (async () => {
          for (let i = 0; i < 5; i++) await send('live', 20);
        })();
      }
      if (item.object === 'event' && numberOf(item) === 2_649) stop.abort();
    }
    await sending;
    const { events, gaps } = expectOnceInOrder(items);
    expect(gaps).toHaveLength(1);
    liveFirstId = events[0]!.id;
    const graph = await client.graphs.retrieve('gph_live');
    expect(events.slice(0, 50).map(numberOf)).toEqual([...Array(50).keys()]);
    expect(gaps[0]!.after).toBe(events[49]!.id);
    expect(numberOf(events[50]!)).toBeGreaterThanOrEqual(2_550 - 2_000);
    expect(events.at(-1)!.id).toBe(graph.retention.last_event_id);
    expect(numberOf(events.at(-1)!)).toBe(2_649);
  }, 120_000);

  it('starts after the newest event by default and polls an idle graph with If-None-Match', async () => {
    await send('idle', 3);
    const stop = new AbortController();
    const items: FollowItem[] = [];
    const following = (async () => {
      for await (const item of client.events.follow('gph_idle', {
        signal: stop.signal,
        minIntervalMs: 20,
        maxIntervalMs: 100,
      }))
        items.push(item);
    })();
    statuses.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(items).toEqual([]);
    expect(statuses).toContain(304);
    await send('idle', 2);
    await waitUntil('the two new events', async () => items.length === 2);
    stop.abort();
    await following;
    expect(items.map((e) => numberOf(e as Event))).toEqual([3, 4]);
  }, 60_000);

  it('resumes after a given event id, yields a gap first when that event was trimmed, and throws on an unknown one', async () => {
    const [first] = await client.events
      .list('gph_idle', { order: 'asc', limit: 1 })
      .toArray({ limit: 1 });
    const stop = new AbortController();
    const items: FollowItem[] = [];
    for await (const item of client.events.follow('gph_idle', {
      after: first!.id,
      signal: stop.signal,
    })) {
      items.push(item);
      if (items.length === 4) stop.abort();
    }
    expect(items.map((e) => numberOf(e as Event))).toEqual([1, 2, 3, 4]);

    const retention = (await client.graphs.retrieve('gph_live')).retention;
    const stopLive = new AbortController();
    const resumed: FollowItem[] = [];
    for await (const item of client.events.follow('gph_live', {
      after: liveFirstId,
      signal: stopLive.signal,
    })) {
      resumed.push(item);
      if (resumed.length === 3) stopLive.abort();
    }
    expect(resumed[0]).toEqual({
      object: 'retention_gap',
      after: liveFirstId,
      first_event_id: retention.first_event_id,
      last_event_id: retention.last_event_id,
    });
    expect((resumed[1] as Event).id).toBe(retention.first_event_id);
    expect(numberOf(resumed[2] as Event)).toBe(numberOf(resumed[1] as Event) + 1);

    const unknown = client.events.follow('gph_idle', { after: 'evt_unknown' });
    await expect(unknown.next()).rejects.toMatchObject({
      name: 'InvalidRequestError',
      code: 'resource_missing',
      param: 'starting_after',
    });
  }, 60_000);
});
