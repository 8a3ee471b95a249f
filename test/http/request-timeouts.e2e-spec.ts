import { rawRequest, RawResponse } from '../support/raw-http';
import { AppName, RunningApp, startApp } from './support/either-app';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
/** Node checks the timeouts once a second. */
const CHECK_MS = 1_000;

/** A POST whose headers arrive at once and whose 100-byte body is still to come. */
const slowBodyHead = (name: AppName, auth: string | null): string => {
  const [path, type] =
    name === 'api'
      ? ['/sign-in', 'application/x-www-form-urlencoded']
      : ['/ingest/v1/graphs/slow/events', 'application/json'];
  const key = auth ? `Authorization: ${auth}\r\n` : '';
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${key}Content-Type: ${type}\r\nContent-Length: 100\r\n\r\n`;
};

/** Sends `head`, then `trickle` a byte every 250 ms; the answer and how long it took. */
async function timed(baseUrl: string, head: string, trickle: string) {
  const start = Date.now();
  const r = await rawRequest(baseUrl, head, { trickle, trickleMs: 250, timeoutMs: 15_000 });
  return { r, ms: Date.now() - start };
}

function expectTimeoutEnvelope(r: RawResponse) {
  expect(r.status).toBe(408);
  expect(r.headers.connection).toBe('close');
  expect(r.headers['request-id']).toMatch(/^req_/);
  expect(JSON.parse(r.body)).toEqual({
    error: {
      type: 'invalid_request_error',
      code: 'request_timeout',
      message: expect.any(String),
      param: null,
      doc_url: expect.stringMatching(/\/docs\/errors#request_timeout$/),
    },
  });
}

describe.each(['api', 'ingestor'] as const)('%s: slow clients', (name) => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp(name, {
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
  });
  afterAll(() => app.stop());

  it('answers headers sent a byte at a time with 408 once the headers timeout is over', async () => {
    const { r, ms } = await timed(
      app.baseUrl,
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      `X-Slow: ${'a'.repeat(100)}`,
    );
    expectTimeoutEnvelope(r);
    expect(ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(ms).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_MS + 1_000);
  });

  it('answers a connection that sends nothing with 408 once the headers timeout is over', async () => {
    const { r, ms } = await timed(app.baseUrl, '', '');
    expectTimeoutEnvelope(r);
    expect(ms).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_MS + 1_000);
  });

  it.each([
    ['with a key', true],
    ['without a key', false],
  ])(
    'answers a body sent a byte at a time, %s, with 408 once the request timeout is over',
    async (_, withKey) => {
      const { r, ms } = await timed(
        app.baseUrl,
        slowBodyHead(name, withKey ? app.auth : null),
        'a'.repeat(100),
      );
      expectTimeoutEnvelope(r);
      expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + CHECK_MS + 1_000);
    },
  );

  it('still serves a request that arrives in time', async () => {
    const r = await rawRequest(
      app.baseUrl,
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(r.status).toBe(200);
  });
});
