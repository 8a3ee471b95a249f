import {
  AuthenticationError,
  type Event,
  type FollowItem,
  GraphHistory,
} from '@graph-history/client';
import { type IssuedKey, Services } from '../conformance/support/services';
import { TcpProxy } from '../support/tcp-proxy';
import { waitUntil } from '../support/wait';
import { expectOnceInOrder, NumberedEvents, numberOf } from './support/numbered-events';

/** events.stream against the started services, through a relay that can break its connections. */
describe('client: events.stream', () => {
  let s: Services;
  let key: IssuedKey;
  let proxy: TcpProxy;
  let client: GraphHistory;
  let numbered: NumberedEvents;

  beforeAll(async () => {
    s = await Services.start();
    key = await s.createKey('stream');
    proxy = await TcpProxy.start(s.apiBaseUrl);
    client = new GraphHistory({ apiKey: key.key, baseUrl: proxy.baseUrl });
    numbered = new NumberedEvents(
      s,
      key,
      new GraphHistory({ apiKey: key.key, baseUrl: s.apiBaseUrl }),
    );
  }, 90_000);
  afterAll(async () => {
    await proxy?.stop();
    await s?.stop();
  });

  /** Streams of a test that failed before it stopped them. */
  const running = new Set<AbortController>();
  afterEach(() => running.forEach((stop) => stop.abort()));

  /** Collects what the stream yields in the background until `stop` aborts. */
  function collect(
    graphId: string,
    options: NonNullable<Parameters<GraphHistory['events']['stream']>[1]> & { signal: AbortSignal },
  ) {
    const items: FollowItem[] = [];
    const stop = new AbortController();
    running.add(stop);
    options.signal.addEventListener('abort', () => stop.abort());
    const done = (async () => {
      for await (const item of client.events.stream(graphId, { ...options, signal: stop.signal }))
        items.push(item);
    })();
    return { items, done };
  }

  it('resumes with the last id across broken connections: every event once, in order', async () => {
    await numbered.send('cut', 1);
    const stop = new AbortController();
    const opened = proxy.opened;
    const { items, done } = collect('gph_cut', { after: null, signal: stop.signal });
    for (let round = 1; round <= 3; round++) {
      await numbered.send('cut', 20);
      await waitUntil(`round ${round}`, async () => items.length >= round * 20 - 5);
      proxy.cut(); // mid-delivery, as a dropped network or a killed replica does
    }
    await numbered.send('cut', 5);
    await waitUntil('every event', async () => items.length === 66);
    stop.abort();
    await done;
    const { events, gaps } = expectOnceInOrder(items);
    expect(gaps).toEqual([]);
    expect(events.map(numberOf)).toEqual([...Array(66).keys()]);
    expect(proxy.opened - opened).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it('yields one gap when its position was trimmed while it was away, then goes on from the oldest retained event', async () => {
    await numbered.send('gap', 10);
    const stop = new AbortController();
    const { items, done } = collect('gph_gap', {
      after: null,
      signal: stop.signal,
      maxRetryMs: 300,
    });
    await waitUntil('the first ten', async () => items.length === 10);
    proxy.down();
    // past 2,000 events, retention keeps the newest 1,000
    await numbered.send('gap', 2_100).finally(() => proxy.up());
    const { retention } = await s.read('/graphs/gph_gap', key.auth);
    expect(retention.first_event_id).not.toBe((items[0] as Event).id);
    await numbered.send('gap', 1);
    await waitUntil('the newest', async () => numberOf(items.at(-1) as Event) === 2_110);
    stop.abort();
    await done;
    const { events, gaps } = expectOnceInOrder(items);
    expect(gaps).toEqual([
      {
        object: 'retention_gap',
        after: events[9]!.id,
        first_event_id: retention.first_event_id,
        last_event_id: expect.any(String),
      },
    ]);
    expect(events.map((e) => e.id)).toContain(gaps[0]!.last_event_id);
    expect(events[10]!.id).toBe(retention.first_event_id);
  }, 90_000);

  it('ends with an AuthenticationError once its key is revoked', async () => {
    const revoked = await s.createKey('stream');
    const reader = new GraphHistory({ apiKey: revoked.key, baseUrl: s.apiBaseUrl });
    await numbered.send('revoked', 1);
    const items: FollowItem[] = [];
    const reading = (async () => {
      for await (const item of reader.events.stream('gph_revoked')) items.push(item);
    })();
    await numbered.send('revoked', 1);
    await waitUntil('the new event', async () => items.length === 1);
    const revokedAt = Date.now();
    await s.revokeKey(revoked.id);
    const error = await reading.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'api_key_invalid', status: 401 });
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
  }, 60_000);

  it('ends cleanly when its signal aborts, closing the connection', async () => {
    await numbered.send('abort', 1);
    const stop = new AbortController();
    const { items, done } = collect('gph_abort', { signal: stop.signal });
    await waitUntil('the stream to be open', async () => proxy.openConnections > 0);
    await numbered.send('abort', 1);
    await waitUntil('the new event', async () => items.length === 1);
    const abortedAt = Date.now();
    stop.abort();
    await expect(done).resolves.toBeUndefined();
    expect(Date.now() - abortedAt).toBeLessThan(1_000);
    await waitUntil('the connection to close', async () => proxy.openConnections === 0);
    expect(items.map((e) => numberOf(e as Event))).toEqual([1]);
  }, 60_000);
});
