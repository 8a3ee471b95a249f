import type { WatchEvent } from '@graph-history/domain';
import { IngestClient, IngestRequestError } from '@graph-history/cli/ingest-client';
import { EventSender, toBatches } from '@graph-history/cli/watch/event-sender';
import { FakeIngest, error } from './support/fake-ingest';

const source = {
  provider: 'claude-code',
  provider_version: '2.1.39',
  adapter: 'claude-code-jsonl/1',
};

function activityStream(count: number, summary = 'x'): WatchEvent[] {
  const events: WatchEvent[] = [
    { key: 's:started', type: 'session.started', created: 1, node: 's', source, payload: {} },
  ];
  for (let i = 1; i < count; i++)
    events.push({
      key: `s:${i}`,
      type: 'activity',
      created: 1 + i,
      node: 's',
      source,
      payload: { summary },
    });
  return events;
}

describe('EventSender', () => {
  const server = new FakeIngest();
  let url: string;
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (m: string) => void warnings.push(m) };
  const sender = (key = server.apiKey) =>
    new EventSender(
      'g1',
      new IngestClient({ url, key, baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 5 }),
      log,
    );

  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.graphs.clear();
    server.requests.length = 0;
    server.maxConcurrent = 0;
    warnings.length = 0;
  });

  it('sends batches of at most 1,000 events, one at a time, in order', async () => {
    const events = activityStream(2_500);
    const totals = await sender().send(events);
    expect(server.requests.map((r) => r.size)).toEqual([1_000, 1_000, 500]);
    expect(server.maxConcurrent).toBe(1);
    expect(server.events('g1').map((e) => e.key)).toEqual(events.map((e) => e.key));
    expect(totals).toEqual({ sent: 2_500, accepted: 2_500, duplicates: 0, skipped: 0 });
  });

  it('keeps batches under the body size limit', () => {
    const batches = toBatches(activityStream(1_000, 'y'.repeat(10_000)));
    expect(batches.length).toBeGreaterThan(2);
    for (const batch of batches)
      expect(Buffer.byteLength(JSON.stringify({ events: batch }))).toBeLessThan(4 * 1024 * 1024);
  });

  it('serialises sends of one graph even when callers do not wait for each other', async () => {
    const s = sender();
    const all = activityStream(300);
    await Promise.all([
      s.send(all.slice(0, 100)),
      s.send(all.slice(100, 200)),
      s.send(all.slice(200)),
    ]);
    expect(server.maxConcurrent).toBe(1);
    expect(server.events('g1').map((e) => e.key)).toEqual(all.map((e) => e.key));
  });

  it('counts re-sent events as duplicates', async () => {
    const events = activityStream(10);
    await sender().send(events);
    expect(await sender().send(events)).toEqual({
      sent: 10,
      accepted: 0,
      duplicates: 10,
      skipped: 0,
    });
  });

  it('drops only the event a 400 names, logs it, and sends the rest', async () => {
    const events = activityStream(5);
    const bad: WatchEvent = {
      key: 'bad',
      type: 'status',
      created: 3,
      node: 'nobody',
      source,
      payload: { state: 'idle' },
    };
    events.splice(2, 0, bad);
    const totals = await sender().send(events);
    expect(totals).toEqual({ sent: 5, accepted: 5, duplicates: 0, skipped: 1 });
    expect(server.events('g1').map((e) => e.key)).toEqual(
      events.filter((e) => e !== bad).map((e) => e.key),
    );
    expect(warnings).toEqual([
      expect.stringMatching(
        /^graph g1: skipping event bad \(status on nobody\): No node has ref "nobody"/,
      ),
    ]);
  });

  it('retries outages (5xx, 429 with Retry-After) until the batch is stored', async () => {
    server.script.push(error(503, 'api_error', 'api_error', null, 'Down.'), {
      ...error(429, 'rate_limit_error', 'rate_limit', null, 'Slow down.'),
      headers: { 'retry-after': '0' },
    });
    const totals = await sender().send(activityStream(3));
    expect(server.requests.map((r) => r.status)).toEqual([503, 429, 202]);
    expect(totals.accepted).toBe(3);
  });

  it('splits a batch the server finds too large', async () => {
    server.script.push(
      error(413, 'invalid_request_error', 'request_too_large', null, 'Too large.'),
    );
    await sender().send(activityStream(10));
    expect(server.requests.map((r) => [r.status, r.size])).toEqual([
      [413, 10],
      [202, 5],
      [202, 5],
    ]);
    expect(server.events('g1')).toHaveLength(10);
  });

  it('throws refusals that need the user, such as a wrong key', async () => {
    await expect(sender('sk_wrong').send(activityStream(2))).rejects.toThrow(IngestRequestError);
    expect(server.events('g1')).toEqual([]);
  });
});
