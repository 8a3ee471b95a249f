import { createServer, type Server, type ServerResponse } from 'node:http';
import { Client } from 'pg';
import {
  ApiError,
  ConnectionError,
  type FetchLike,
  GraphHistory,
  InvalidRequestError,
  RateLimitError,
} from '@graph-history/client';
import { type IssuedKey, Services } from '../conformance/support/services';
import { WatchScript } from '../conformance/support/watch-events';
import { freePort } from '../support/free-port';

interface Sent {
  at: number;
  status: number;
  retryAfter: string | null;
}

/** A fetch that records each answer's time, status and Retry-After. */
function recordingFetch(log: Sent[]): FetchLike {
  return async (url, init) => {
    const res = await fetch(url, init);
    log.push({ at: Date.now(), status: res.status, retryAfter: res.headers.get('retry-after') });
    return res;
  };
}

/** Retries (429 against the real rate limiter; 5xx, network failures, timeouts) and when none happen. */
describe('client: retries', () => {
  describe('against the started services with a small rate limit', () => {
    let s: Services;
    let key: IssuedKey;

    beforeAll(async () => {
      s = await Services.start({ RATE_LIMIT_PER_SECOND: '4', RATE_LIMIT_BURST: '4' });
      key = await s.createKey('rl');
      const script = new WatchScript().session('S');
      for (let i = 0; i < 29; i++) script.agent(`S/${i}`, 'S');
      await s.load(key, 'rl', script.events);
    }, 90_000);
    afterAll(() => s?.stop());

    it('recovers from 429s by waiting at least Retry-After, and yields every item once', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const log: Sent[] = [];
      const client = new GraphHistory({
        apiKey: key.key,
        baseUrl: s.apiBaseUrl,
        maxRetries: 10,
        initialDelayMs: 50,
        fetch: recordingFetch(log),
      });
      const nodes = await client.nodes.list('gph_rl', { limit: 2 }).toArray({ limit: 100 });
      expect(nodes).toHaveLength(30);
      expect(new Set(nodes.map((n) => n.id)).size).toBe(30);
      const limited = log.filter((x) => x.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      log.forEach((x, i) => {
        if (x.status !== 429) return;
        expect(x.retryAfter).toMatch(/^[0-9]+$/);
        const next = log[i + 1]!;
        expect(next.at - x.at).toBeGreaterThanOrEqual(Number(x.retryAfter) * 1_000 - 50);
      });
      expect(log.at(-1)!.status).toBe(200);
    }, 60_000);

    it('throws RateLimitError with retryAfter when retries are off', async () => {
      const client = new GraphHistory({ apiKey: key.key, baseUrl: s.apiBaseUrl, maxRetries: 0 });
      let error: unknown;
      for (let i = 0; i < 10 && error === undefined; i++)
        error = await client.graphs.retrieve('gph_rl').then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({
        type: 'rate_limit_error',
        code: 'rate_limit',
        status: 429,
        param: null,
      });
      expect((error as RateLimitError).retryAfter).toBeGreaterThan(0);
      expect((error as RateLimitError).requestId).toMatch(/^req_/);
      expect((error as RateLimitError).doc_url).toMatch(/#rate_limit$/);
    });

    it('never retries another 4xx', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const log: Sent[] = [];
      const client = new GraphHistory({
        apiKey: key.key,
        baseUrl: s.apiBaseUrl,
        maxRetries: 5,
        initialDelayMs: 10,
        fetch: recordingFetch(log),
      });
      await expect(client.graphs.retrieve('gph_rl', { asOf: 'evt_nope' })).rejects.toBeInstanceOf(
        InvalidRequestError,
      );
      expect(log.map((x) => x.status)).toEqual([404]);
    });

    it('throws ApiError quoting the request id when the database is gone (run last)', async () => {
      const admin = new Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(
          `DROP DATABASE IF EXISTS ${new URL(s.databaseUrl).pathname.slice(1)} WITH (FORCE)`,
        );
      } finally {
        await admin.end();
      }
      const log: Sent[] = [];
      const client = new GraphHistory({
        apiKey: key.key,
        baseUrl: s.apiBaseUrl,
        maxRetries: 2,
        initialDelayMs: 10,
        fetch: recordingFetch(log),
      });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const error = await client.graphs.list().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      const e = error as ApiError;
      expect(e).toMatchObject({ type: 'api_error', code: 'api_error' });
      expect([500, 503]).toContain(e.status);
      expect(e.message).toContain(e.requestId!);
      expect(log.map((x) => x.status).filter((x) => x >= 500)).toHaveLength(3);
    });
  });

  describe('against a misbehaving server', () => {
    let server: Server;
    let baseUrl: string;
    /** What the server does with each request, in order; then it answers 200. */
    let script: Array<(res: ServerResponse) => void> = [];
    let requests = 0;

    const ok = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_ok' });
      res.end(JSON.stringify({ id: 'gph_x', object: 'graph' }));
    };
    const failWith = (status: number) => (res: ServerResponse) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${status}` });
      res.end(
        JSON.stringify({
          error: {
            type: 'api_error',
            code: 'api_error',
            message: 'boom',
            param: null,
            doc_url: '/docs/errors#api_error',
          },
        }),
      );
    };
    const hangUp = (res: ServerResponse) => res.socket?.destroy();
    const neverAnswer = () => undefined;

    beforeAll(async () => {
      const port = await freePort();
      server = createServer((req, res) => {
        // a server without event streams: events.follow then polls
        if (req.url!.includes('/events/stream')) return void res.writeHead(404).end();
        requests += 1;
        (script.shift() ?? ok)(res);
      });
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    beforeEach(() => {
      requests = 0;
    });

    const client = (options: { maxRetries?: number; timeoutMs?: number } = {}) =>
      new GraphHistory({
        apiKey: 'sk_test',
        baseUrl,
        initialDelayMs: 10,
        maxDelayMs: 40,
        ...options,
      });

    it('retries 5xx and dropped connections, then succeeds', async () => {
      script = [failWith(503), hangUp, failWith(500)];
      const graph = await client({ maxRetries: 3 }).graphs.retrieve('gph_x');
      expect(graph.id).toBe('gph_x');
      expect(requests).toBe(4);
    });

    it('gives up after maxRetries with the last error', async () => {
      script = [failWith(502), failWith(502), failWith(502)];
      const error = await client({ maxRetries: 2 })
        .graphs.retrieve('gph_x')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 502, requestId: 'req_502' });
      expect(requests).toBe(3);
    });

    it('times out each attempt and throws ConnectionError when none answers', async () => {
      script = [neverAnswer, neverAnswer];
      const error = await client({ maxRetries: 1, timeoutMs: 200 })
        .graphs.retrieve('gph_x')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ status: 0, requestId: null, code: 'connection_error' });
      expect((error as Error).message).toMatch(/timed out after 200 ms/);
      expect(requests).toBe(2);
    });

    it('throws ConnectionError when nothing listens', async () => {
      const closed = new GraphHistory({
        apiKey: 'sk_test',
        baseUrl: `http://127.0.0.1:${await freePort()}`,
        maxRetries: 1,
        initialDelayMs: 10,
      });
      await expect(closed.graphs.list()).rejects.toBeInstanceOf(ConnectionError);
    });

    it('keeps following through 5xx answers and dropped connections', async () => {
      const event = (n: number) => ({
        id: `evt_${n}`,
        object: 'event',
        type: 'status',
        changes: [],
      });
      const page =
        (...ids: number[]) =>
        (res: ServerResponse) => {
          res.writeHead(200, { 'content-type': 'application/json', etag: `"p${ids.join('-')}"` });
          res.end(
            JSON.stringify({
              object: 'list',
              url: '/x',
              as_of_event_id: null,
              has_more: false,
              data: ids.map(event),
            }),
          );
        };
      script = [page(1), failWith(503), hangUp, failWith(500), page(2, 3)];
      const stop = new AbortController();
      const seen: string[] = [];
      const follower = client({ maxRetries: 0 }).events.follow('gph_x', {
        after: 'evt_0',
        signal: stop.signal,
        minIntervalMs: 5,
        maxIntervalMs: 20,
      });
      for await (const item of follower) {
        if (item.object === 'event') seen.push(item.id);
        if (seen.length === 3) stop.abort();
      }
      expect(seen).toEqual(['evt_1', 'evt_2', 'evt_3']);
      expect(requests).toBe(5);
    });

    it('stops waiting as soon as the signal aborts', async () => {
      script = [failWith(503)];
      const stop = new AbortController();
      const call = new GraphHistory({
        apiKey: 'sk_test',
        baseUrl,
        initialDelayMs: 10_000,
      }).graphs.retrieve('gph_x', {}, { signal: stop.signal });
      setTimeout(() => stop.abort(new Error('stopped')), 100);
      await expect(call).rejects.toThrow('stopped');
      expect(requests).toBe(1);
    });
  });
});
