import { IngestClient, IngestRequestError } from '@graph-history/cli/ingest-client';
import { FakeIngestServer, startFakeIngestServer } from './support/fake-ingest-server';

const KEY = 'sk_live_abcdefghijklmnopqrstuvwxyz012345';
const batch = [{ key: 'k1' }, { key: 'k2' }];

describe('IngestClient', () => {
  let server: FakeIngestServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('posts { events } to the graph path and returns the answer', async () => {
    server = await startFakeIngestServer();
    const client = new IngestClient({ url: `${server.url}/`, key: KEY });
    expect(client.eventsUrl('a_b-c')).toBe(`${server.url}/ingest/v1/graphs/a_b-c/events`);
    await expect(client.send('a_b-c', batch)).resolves.toEqual({
      accepted: 2,
      duplicates: 0,
      last_key: 'k2',
    });
    expect(server.requests).toEqual([
      { graph: 'a_b-c', authorization: `Bearer ${KEY}`, events: batch },
    ]);
  });

  it('gives up after maxAttempts on persistent 5xx, reporting each retry', async () => {
    server = await startFakeIngestServer(() => ({ status: 502, body: 'not json' }));
    const retries: number[] = [];
    const client = new IngestClient({
      url: server.url,
      key: KEY,
      maxAttempts: 3,
      baseDelayMs: 10,
      onRetry: (r) => retries.push(r.attempt),
    });
    const err = await client.send('g', batch).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IngestRequestError);
    expect((err as Error).message).toBe('Gave up after 3 attempts: 502');
    expect(retries).toEqual([1, 2]);
    expect(server.requests).toHaveLength(3);
  });

  it('honours Retry-After on 429', async () => {
    server = await startFakeIngestServer((b, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '1' }, body: {} }
        : { status: 202, body: { accepted: 2, duplicates: 0, last_key: 'k2' } },
    );
    const delays: number[] = [];
    const client = new IngestClient({
      url: server.url,
      key: KEY,
      baseDelayMs: 1,
      onRetry: (r) => delays.push(r.delayMs),
    });
    const started = Date.now();
    await client.send('g', batch);
    expect(delays).toEqual([1_000]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('does not retry other client errors and keeps the error envelope', async () => {
    const error = {
      type: 'permission_error',
      code: 'api_key_restricted',
      message: 'Restricted keys cannot write.',
      param: null,
    };
    server = await startFakeIngestServer(() => ({ status: 403, body: { error } }));
    const err = (await new IngestClient({ url: server.url, key: KEY })
      .send('g', batch)
      .catch((e: unknown) => e)) as IngestRequestError;
    expect(err).toBeInstanceOf(IngestRequestError);
    expect(err.status).toBe(403);
    expect(err.body).toEqual(error);
    expect(err.message).toBe('Restricted keys cannot write.');
    expect(server.requests).toHaveLength(1);
  });

  it('retries when nothing listens, then says it cannot reach the URL', async () => {
    const closed = await startFakeIngestServer();
    await closed.close();
    const client = new IngestClient({ url: closed.url, key: KEY, maxAttempts: 2, baseDelayMs: 1 });
    await expect(client.send('g', batch)).rejects.toThrow(
      `Gave up after 2 attempts: cannot reach ${closed.url} (ECONNREFUSED)`,
    );
  });
});
