import type { Socket } from 'node:net';
import { rawRequest } from '../support/raw-http';
import { waitUntil } from '../support/wait';
import { AppName, RunningApp, startApp } from './support/either-app';
import { heldConnection } from './support/held-connection';

const HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';

/** A request whose headers have arrived and whose body has not: in flight until it does. */
const PENDING: Record<AppName, (forwardedFor: string) => string> = {
  api: (xff) =>
    `POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${xff}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 2\r\n\r\n`,
  ingestor: (xff) =>
    `POST /ingest/v1/graphs/pending/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${xff}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`,
};

const healthzFrom = (baseUrl: string, { localAddress = '127.0.0.1', forwardedFor = '' } = {}) =>
  rawRequest(
    baseUrl,
    HEALTHZ.replace(
      '\r\n\r\n',
      forwardedFor ? `\r\nX-Forwarded-For: ${forwardedFor}\r\n\r\n` : '\r\n\r\n',
    ),
    { localAddress },
  );

describe.each(['api', 'ingestor'] as const)('%s: connections per client address', (name) => {
  let app: RunningApp;
  const held: Socket[] = [];
  beforeAll(async () => {
    app = await startApp(name, {
      TRUST_PROXY: 'false',
      MAX_CLIENT_CONNECTIONS: '3',
      KEEP_ALIVE_TIMEOUT_MS: '60000',
    });
  });
  afterEach(() => held.splice(0).forEach((s) => s.destroy()));
  afterAll(() => app.stop());

  it('closes connections beyond the cap of one address at once, and serves other addresses', async () => {
    for (let i = 0; i < 3; i++) held.push(await heldConnection(app.baseUrl));
    await expect(heldConnection(app.baseUrl)).rejects.toThrow('closed without an answer');
    await expect(rawRequest(app.baseUrl, HEALTHZ)).rejects.toThrow('without an answer');
    expect((await healthzFrom(app.baseUrl, { localAddress: '127.0.0.2' })).status).toBe(200);

    held.pop()!.destroy();
    const again = await waitUntil('a freed slot', () =>
      heldConnection(app.baseUrl).catch(() => undefined),
    );
    held.push(again);
  });
});

describe.each(['api', 'ingestor'] as const)('%s: behind a trusted proxy', (name) => {
  let app: RunningApp;
  const held: Socket[] = [];
  beforeAll(async () => {
    app = await startApp(name, {
      TRUST_PROXY: '127.0.0.1',
      MAX_CLIENT_CONNECTIONS: '2',
      KEEP_ALIVE_TIMEOUT_MS: '60000',
      REQUEST_TIMEOUT_MS: '3000',
    });
  });
  afterEach(() => held.splice(0).forEach((s) => s.destroy()));
  afterAll(() => app.stop());

  it('does not cap the connections of the proxy, only of other addresses', async () => {
    for (let i = 0; i < 4; i++) held.push(await heldConnection(app.baseUrl, '127.0.0.1'));
    for (let i = 0; i < 2; i++) held.push(await heldConnection(app.baseUrl, '127.0.0.2'));
    await expect(heldConnection(app.baseUrl, '127.0.0.2')).rejects.toThrow('without an answer');
  });

  it('caps the requests in flight of each forwarded client address with a 429', async () => {
    const pending = [0, 1].map(() =>
      rawRequest(app.baseUrl, PENDING[name]('203.0.113.7')).catch(() => undefined),
    );
    const refused = await waitUntil(
      'a 429 for the busy client',
      async () => {
        const r = await healthzFrom(app.baseUrl, { forwardedFor: '203.0.113.7' });
        return r.status === 429 && r;
      },
      5_000,
    );
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body).error).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit',
      param: null,
    });
    // the same proxy, another client behind it
    expect((await healthzFrom(app.baseUrl, { forwardedFor: '203.0.113.8' })).status).toBe(200);
    // the pending bodies never come: the request timeout ends them
    expect((await Promise.all(pending)).map((r) => r?.status)).toEqual([408, 408]);
  });
});

describe.each(['api', 'ingestor'] as const)('%s: connections in all', (name) => {
  let app: RunningApp;
  const held: Socket[] = [];
  beforeAll(async () => {
    app = await startApp(name, {
      TRUST_PROXY: 'false',
      MAX_CONNECTIONS: '4',
      KEEP_ALIVE_TIMEOUT_MS: '60000',
    });
  });
  afterEach(() => held.splice(0).forEach((s) => s.destroy()));
  afterAll(() => app.stop());

  it('closes connections beyond MAX_CONNECTIONS, whatever their address', async () => {
    for (const address of ['127.0.0.1', '127.0.0.1', '127.0.0.2', '127.0.0.3'])
      held.push(await heldConnection(app.baseUrl, address));
    await expect(heldConnection(app.baseUrl, '127.0.0.4')).rejects.toThrow('without an answer');
  });
});
