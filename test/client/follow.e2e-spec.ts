import { type Event, type FetchLike, type FollowItem, GraphHistory } from '@graph-history/client';
import { type IssuedKey, Services } from '../conformance/support/services';
import { waitUntil } from '../support/wait';
import { expectOnceInOrder, NumberedEvents, numberOf } from './support/numbered-events';

/** events.follow while events are ingested and retention trims, against the started services. */
describe('client: events.follow', () => {
  let s: Services;
  let key: IssuedKey;
  const statuses: number[] = [];
  const counting: FetchLike = async (url, init) => {
    const res = await fetch(url, init);
    if (url.includes('/events')) statuses.push(res.status);
    return res;
  };
  /** A fetch whose answers have no body stream (a platform without streaming): follow polls. */
  const unstreamed: FetchLike = async (url, init) => {
    const res = await counting(url, init);
    return { status: res.status, headers: res.headers, text: () => res.text() };
  };
  /** A server without the stream route (it answers 404 there): follow polls. */
  const withoutStreams: FetchLike = (url, init) =>
    counting(url.replace('/events/stream', '/events/stream-unknown'), init);
  let client: GraphHistory;
  let polling: GraphHistory;
  let send: (graphKey: string, count: number) => Promise<void>;
  /** The first event of gph_live, trimmed by the first test. */
  let liveFirstId = '';

  beforeAll(async () => {
    s = await Services.start();
    key = await s.createKey('follow');
    client = new GraphHistory({ apiKey: key.key, baseUrl: s.apiBaseUrl, fetch: counting });
    polling = new GraphHistory({ apiKey: key.key, baseUrl: s.apiBaseUrl, fetch: unstreamed });
    const numbered = new NumberedEvents(s, key, client);
    send = (graphKey, count) => numbered.send(graphKey, count);
  }, 90_000);
  afterAll(() => s?.stop());

  /** A client that records the path of every request it sends into `urls`. */
  const recordingClient = (urls: string[]) =>
    new GraphHistory({
      apiKey: key.key,
      baseUrl: s.apiBaseUrl,
      fetch: (url, init) => {
        urls.push(new URL(url).pathname);
        return fetch(url, init);
      },
    });

  it('polling (no streaming fetch): yields each new event once, in order, reports a trimmed position as a gap, and stops on abort', async () => {
    await send('live', 50);
    const stop = new AbortController();
    const items: FollowItem[] = [];
    let trimmed = false;
    let sending: Promise<void> = Promise.resolve();
    for await (const item of polling.events.follow('gph_live', {
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

  it('polling (no stream route): starts after the newest event by default and polls an idle graph with If-None-Match', async () => {
    await send('idle', 3);
    const stop = new AbortController();
    const items: FollowItem[] = [];
    const oldServer = new GraphHistory({
      apiKey: key.key,
      baseUrl: s.apiBaseUrl,
      fetch: withoutStreams,
    });
    const following = (async () => {
      for await (const item of oldServer.events.follow('gph_idle', {
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

  it('follows by the event stream where it can: new events arrive with no list request', async () => {
    const urls: string[] = [];
    const follower = recordingClient(urls);
    const stop = new AbortController();
    const items: FollowItem[] = [];
    const following = (async () => {
      for await (const item of follower.events.follow('gph_idle', { signal: stop.signal }))
        items.push(item);
    })();
    await waitUntil('the stream to open', async () => urls.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await send('idle', 2);
    await waitUntil('the two new events', async () => items.length === 2);
    stop.abort();
    await following;
    expect(items.map((e) => numberOf(e as Event))).toEqual([5, 6]);
    expect(urls).toEqual(['/api/v1/graphs/gph_idle', '/api/v1/graphs/gph_idle/events/stream']);
  }, 60_000);

  it('events.poll reads the list and never the stream', async () => {
    const urls: string[] = [];
    const poller = recordingClient(urls);
    const stop = new AbortController();
    const items: FollowItem[] = [];
    const polling = (async () => {
      for await (const item of poller.events.poll('gph_idle', { signal: stop.signal }))
        items.push(item);
    })();
    await waitUntil('the first poll', async () => urls.length >= 2);
    await send('idle', 1);
    await waitUntil('the new event', async () => items.length === 1);
    stop.abort();
    await polling;
    expect(items.map((e) => numberOf(e as Event))).toEqual([7]);
    expect(urls).not.toContain('/api/v1/graphs/gph_idle/events/stream');
    expect(urls).toContain('/api/v1/graphs/gph_idle/events');
  }, 60_000);
});
