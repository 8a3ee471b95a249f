import { ApiHarness } from '../api/support/api-harness';
import { endpointFixture, EndpointFixture } from '../ingestor/support/endpoint-fixture';
import { rawRequest, RawResponse } from '../support/raw-http';

/** What Fastify or Node refuse before any route runs still answers in the envelope, with a Request-Id. */
function expectEnvelope(r: RawResponse, status: number, code: string, param: string | null = null) {
  expect({ status: r.status, requestId: r.headers['request-id'] }).toEqual({
    status,
    requestId: expect.stringMatching(/^req_[0-9A-Za-z]{16}$/),
  });
  const { error } = JSON.parse(r.body);
  expect(error).toMatchObject({ code, param });
  expect(typeof error.message).toBe('string');
  expect(error.doc_url).toMatch(new RegExp(`/docs/errors#${code}$`));
  expect(r.headers['content-type']).toMatch(/^application\/json/);
}

const get = (path: string | Buffer, headers = '') =>
  Buffer.concat([
    Buffer.from('GET '),
    Buffer.from(path),
    Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`),
  ]);

describe.each(['api', 'ingestor'] as const)('%s: errors before routing', (app) => {
  let baseUrl: string;
  let stop: () => Promise<void>;
  let ingest: EndpointFixture | undefined;
  let auth: string;
  const idPath = app === 'api' ? '/api/v1/graphs/' : '/ingest/v1/graphs/';
  const idSuffix = app === 'api' ? '' : '/events';
  const idParam = app === 'api' ? 'graph_id' : 'graph_key';

  beforeAll(async () => {
    if (app === 'api') {
      const h = await ApiHarness.start();
      baseUrl = h.baseUrl;
      auth = `Bearer ${h.secret}`;
      stop = () => h.stop();
    } else {
      ingest = await endpointFixture(false);
      baseUrl = ingest.app.baseUrl;
      auth = ingest.owner.auth;
      stop = () => ingest!.close();
    }
  });
  afterAll(() => stop());

  it('answers a raw non-ASCII byte in the URL with 400', async () => {
    const path = Buffer.concat([
      Buffer.from(`${idPath}gph_`),
      Buffer.from([0xff]),
      Buffer.from(idSuffix),
    ]);
    expectEnvelope(await rawRequest(baseUrl, get(path)), 400, 'parameter_invalid');
  });

  it('answers a URL over the header limit with 431', async () => {
    const r = await rawRequest(baseUrl, get(`${idPath}${'a'.repeat(20_000)}${idSuffix}`));
    expectEnvelope(r, 431, 'request_too_large');
  });

  it('answers headers over the limit with 431', async () => {
    const r = await rawRequest(baseUrl, get('/healthz', `X-Big: ${'b'.repeat(20_000)}\r\n`));
    expectEnvelope(r, 431, 'request_too_large');
  });

  it('answers a malformed request line with 400', async () => {
    const r = await rawRequest(
      baseUrl,
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n',
    );
    expectEnvelope(r, 400, 'parameter_invalid');
  });

  it('names the path parameter whose percent-encoding is broken', async () => {
    const method = app === 'api' ? 'GET' : 'POST';
    const r = await rawRequest(
      baseUrl,
      `${method} ${idPath}gph_%ZZ${idSuffix} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    expectEnvelope(r, 400, 'parameter_invalid', idParam);
  });

  it('names the path parameter that is over-long, as for any bad id', async () => {
    const long = `gph_${'a'.repeat(1_500)}`;
    const method = app === 'api' ? 'GET' : 'POST';
    const body = '{"events":[]}';
    const r = await rawRequest(
      baseUrl,
      `${method} ${idPath}${long}${idSuffix} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    if (app === 'api') expectEnvelope(r, 404, 'resource_missing', idParam);
    else expectEnvelope(r, 400, 'parameter_invalid', idParam);
  });
});

describe('ingestor: bodies', () => {
  let f: EndpointFixture;
  beforeAll(async () => {
    f = await endpointFixture(false);
  });
  afterAll(() => f.close());

  it.each([
    ['text/plain', '{"events":[]}'],
    ['application/x-www-form-urlencoded', 'events=1&hello=world'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
  ])('answers %s with 415 unsupported_media_type, whatever the key', async (type, body) => {
    for (const auth of [f.owner.auth, null]) {
      const res = await f.post('media', body, auth, { 'content-type': type });
      expect(res.statusCode).toBe(415);
      expect(res.headers.get('request-id')).toMatch(/^req_/);
      expect(res.json().error).toMatchObject({ code: 'unsupported_media_type', param: null });
      expect(res.body).not.toContain('hello');
    }
  });

  it('answers another method on the events path with 405, whatever body came along', async () => {
    const r = await rawRequest(
      f.app.baseUrl,
      'PUT /ingest/v1/graphs/g/events HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expectEnvelope(r, 405, 'method_not_allowed');
  });

  it('answers a body shorter than its Content-Length with 400, in the envelope', async () => {
    const body = '{"events":[]}';
    const r = await rawRequest(
      f.app.baseUrl,
      `POST /ingest/v1/graphs/short/events HTTP/1.1\r\nHost: x\r\nAuthorization: ${f.owner.auth}\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 50}\r\n\r\n${body}`,
      { endAfterWrite: true },
    );
    expectEnvelope(r, 400, 'parameter_invalid', 'body');
    expect(await f.graphRow('short')).toBeUndefined();
  });
});
