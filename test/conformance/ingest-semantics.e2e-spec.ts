import { type IssuedKey, Services } from './support/services';
import { waitUntil } from '../support/wait';
import { SOURCE, WatchScript } from './support/watch-events';

/** ingest.md: the 202 answer, duplicate keys, readable within a second, stored order and clock skew. */
describe('conformance: ingest answers, idempotency, time and order (ingest.md)', () => {
  let s: Services;
  let acme: IssuedKey;
  let other: IssuedKey;

  beforeAll(async () => {
    s = await Services.start();
    [acme, other] = await Promise.all([s.createKey('acme'), s.createKey('other')]);
  }, 90_000);
  afterAll(() => s?.stop());

  const eventCount = (graphKey: string) => s.eventCount(acme.auth, graphKey);
  const eventsAsc = async (graphKey: string) =>
    (await s.read(`/graphs/gph_${graphKey}/events?order=asc&limit=1000`, acme.auth)).data as Array<{
      type: string;
      created: number;
      payload: Record<string, unknown>;
    }>;

  describe('202 answer, idempotency, time and order', () => {
    it('answers 202 {accepted, duplicates, last_key}, counts repeated keys as duplicates, even mixed', async () => {
      const script = new WatchScript().session('s').activity('s').activity('s');
      const first = await s.ingest('ing-idem', script.events, acme.auth);
      expect(first.status).toBe(202);
      expect(first.body).toEqual({ accepted: 3, duplicates: 0, last_key: script.events[2]!.key });
      const again = await s.ingest('ing-idem', script.events, acme.auth);
      expect(again.status).toBe(202);
      expect(again.body).toEqual({ accepted: 0, duplicates: 3, last_key: script.events[2]!.key });
      const more = new WatchScript(1_763_780_000_000).activity('s').events;
      const changed = { ...script.events[1]!, payload: { summary: 'different content, same key' } };
      const mixed = await s.ingest('ing-idem', [script.events[0]!, changed, ...more], acme.auth);
      expect(mixed.body).toEqual({ accepted: 1, duplicates: 2, last_key: more[0]!.key });
      await s.waitForEventCount(acme.auth, 'ing-idem', 4);
      const events = await eventsAsc('ing-idem');
      expect(events.map((e) => e.payload.summary ?? null)).toEqual([null, null, null, null]);
    });

    it('accepts a key of 200 characters', async () => {
      const script = new WatchScript().session('s');
      script.events[0]!.key = 'k'.repeat(200);
      const res = await s.ingest('ing-key200', script.events, acme.auth);
      expect(res.body).toEqual({ accepted: 1, duplicates: 0, last_key: 'k'.repeat(200) });
    });

    it('treats keys per graph: the same key in another graph is a new event', async () => {
      const script = new WatchScript().session('s');
      await s.load(acme, 'ing-keys-a', script.events);
      const res = await s.ingest('ing-keys-b', script.events, acme.auth);
      expect(res.body).toEqual({ accepted: 1, duplicates: 0, last_key: script.events[0]!.key });
    });

    it('answers concurrent first writes of one account to a new graph with 202 each, never a 500', async () => {
      const batches = Array.from(
        { length: 6 },
        (_, i) => new WatchScript(1_763_770_000_000 + i).session(`s${i}`).events,
      );
      const answers = await Promise.all(batches.map((b) => s.ingest('ing-race', b, acme.auth)));
      expect(answers.map((r) => r.status)).toEqual(Array(6).fill(202));
      await s.waitForEventCount(acme.auth, 'ing-race', 6);
    });

    it('stores a key sent concurrently exactly once', async () => {
      await s.load(acme, 'ing-race-dup', new WatchScript().session('s').events);
      const retry = new WatchScript(1_763_780_000_000).activity('s').events;
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => s.ingest('ing-race-dup', retry, acme.auth)),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(5).fill(202));
      expect(answers.map((r) => r.body.accepted).sort()).toEqual([0, 0, 0, 0, 1]);
      expect(answers.map((r) => r.body.duplicates).sort()).toEqual([0, 1, 1, 1, 1]);
      await s.waitForEventCount(acme.auth, 'ing-race-dup', 2);
    });

    it('gives a new graph key raced by two accounts to exactly one of them; the other gets 409', async () => {
      const [a, b] = await Promise.all([
        s.ingest('ing-race-2', new WatchScript().session('a').events, acme.auth),
        s.ingest('ing-race-2', new WatchScript().session('b').events, other.auth),
      ]);
      expect([a!.status, b!.status].sort()).toEqual([202, 409]);
    });

    it('makes a batch of 1,000 stored events readable through the read API within a second', async () => {
      const script = new WatchScript(1_763_770_000_000, 1).session('s');
      for (let i = 0; i < 999; i++) script.activity('s');
      const res = await s.ingest('ing-fast', script.events, acme.auth);
      expect(res.status).toBe(202);
      const answered = Date.now();
      await waitUntil(
        'the batch to be readable',
        async () => (await eventCount('ing-fast')) === 1_000,
        5_000,
      );
      // One second by contract; the rest is slack for this shared 2-core machine.
      expect(Date.now() - answered).toBeLessThan(1_500);
    });

    it('stores events in batch order, then order inside a batch, with the sent fields', async () => {
      const a = new WatchScript(1_763_770_000_000)
        .session('s', { title: 'one' })
        .status('s', 'idle', 'two');
      const b = new WatchScript(1_763_770_100_000)
        .event('title', 's', { title: 'three' })
        .activity('s', 'four');
      await s.load(acme, 'ing-order', a.events);
      await s.load(acme, 'ing-order', b.events);
      const events = await eventsAsc('ing-order');
      const sent = [...a.events, ...b.events];
      expect(events.map((e) => [e.type, e.created, e.payload])).toEqual(
        sent.map((e) => [e.type, e.created, e.payload]),
      );
      const stored = (await s.read('/graphs/gph_ing-order/events?order=asc', acme.auth)).data;
      for (const e of stored) expect(e.source).toEqual(SOURCE);
    });

    it('raises a created earlier than the previous event to that event, within and across batches', async () => {
      const t = 1_763_770_000_000;
      const one = new WatchScript(t).session('s').events;
      const two = new WatchScript(t - 5_000).activity('s', 'skewed in batch').events;
      const three = new WatchScript(t + 2_000).activity('s', 'later').events;
      const four = new WatchScript(t - 60_000).activity('s', 'skewed next batch').events;
      await s.load(acme, 'ing-skew', [...one, ...two, ...three]);
      await s.load(acme, 'ing-skew', four);
      const events = await eventsAsc('ing-skew');
      expect(events.map((e) => e.created)).toEqual([t, t, t + 2_000, t + 2_000]);
      const graph = await s.read('/graphs/gph_ing-skew', acme.auth);
      expect(graph.last_event).toBe(t + 2_000);
      expect(graph.retention.last_event_created).toBe(t + 2_000);
    });
  });
});
