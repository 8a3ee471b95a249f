import { Client } from 'pg';
import { expectApiError, expectRequestId } from './support/contract';
import { type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

/** decisions.md "HTTP statuses", Request-Id, unknown URLs and methods, the served docs. */
describe('conformance: protocol', () => {
  let s: Services;
  let acme: IssuedKey;
  let unusedKey: IssuedKey;

  beforeAll(async () => {
    s = await Services.start();
    [acme, unusedKey] = await Promise.all([s.createKey('acme'), s.createKey('acme')]);
    await s.load(acme, 'proto', new WatchScript().session('s').events);
  }, 90_000);
  afterAll(() => s?.stop());

  describe('unknown URLs: 404 resource_missing, param null', () => {
    it.each(['/api/v1/nothing', '/api/v1/graphs/gph_proto/nothing', '/api/v2/graphs', '/nothing'])(
      'GET %s',
      async (path) => {
        expectApiError(await s.raw(path, { auth: acme.auth }), {
          status: 404,
          type: 'invalid_request_error',
          code: 'resource_missing',
          param: null,
        });
      },
    );
  });

  describe('methods other than GET/HEAD: 405 method_not_allowed', () => {
    it.each([
      ['POST', '/api/v1/graphs'],
      ['PUT', '/api/v1/graphs/gph_proto'],
      ['DELETE', '/api/v1/graphs/gph_proto'],
      ['PATCH', '/api/v1/graphs/gph_proto'],
      ['POST', '/api/v1/graphs/gph_proto/events'],
    ])('%s %s', async (method, path) => {
      const res = await s.raw(path, { method, auth: acme.auth, body: '{}' });
      expectApiError(res, {
        status: 405,
        type: 'invalid_request_error',
        code: 'method_not_allowed',
        param: null,
      });
    });

    it('answers HEAD like GET, without a body', async () => {
      const res = await s.raw('/api/v1/graphs/gph_proto', { method: 'HEAD', auth: acme.auth });
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expectRequestId(res);
    });
  });

  describe('parameters', () => {
    it.each([
      ['/graphs?colour=red', 'colour'],
      ['/graphs/gph_proto?limit=5', 'limit'],
      ['/graphs/gph_proto/events?parent_id=x', 'parent_id'],
      ['/graphs/gph_proto/nodes?colour=1', 'colour'],
    ])('an unknown query parameter is 400 parameter_unknown naming it: %s', async (path, param) => {
      expectApiError(await s.get(path, acme.auth), {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_unknown',
        param,
      });
    });
  });

  describe('Request-Id', () => {
    it('is on every response, unique per request', async () => {
      const responses = await Promise.all([
        s.get('/graphs', acme.auth),
        s.get('/graphs/gph_proto', acme.auth),
        s.get('/graphs', undefined),
        s.get('/graphs?limit=0', acme.auth),
        s.get('/graphs/gph_missing', acme.auth),
        s.raw('/nothing', { auth: acme.auth }),
        s.raw('/api/v1/graphs', { method: 'POST', auth: acme.auth }),
        s.raw('/api/v1/openapi.json'),
        s.raw('/docs'),
      ]);
      const ids = responses.map(expectRequestId);
      expect(new Set(ids).size).toBe(ids.length);
      const etag = responses[1]!.headers.etag as string;
      const notModified = await s.get('/graphs/gph_proto', acme.auth, {
        headers: { 'if-none-match': etag },
      });
      expect(notModified.status).toBe(304);
      expectRequestId(notModified);
    });
  });

  describe('documentation', () => {
    it('serves the OpenAPI document at /api/v1/openapi.json', async () => {
      const res = await s.raw('/api/v1/openapi.json');
      expect(res.status).toBe(200);
      expect(res.body.openapi).toMatch(/^3\./);
      const paths = Object.keys(res.body.paths);
      for (const p of [
        '/graphs',
        '/graphs/{graph_id}',
        '/graphs/{graph_id}/nodes',
        '/graphs/{graph_id}/nodes/{node_id}',
        '/graphs/{graph_id}/events',
      ]) {
        expect(paths.some((x) => x.endsWith(p))).toBe(true);
      }
    });

    it('serves /docs', async () => {
      const res = await s.raw('/docs');
      expect(res.status).toBe(200);
      expect(res.text.length).toBeGreaterThan(0);
    });

    it('serves the page every doc_url points to, with an anchor per error code', async () => {
      const e = (await s.get('/graphs?limit=0', acme.auth)).body.error;
      const url = new URL(e.doc_url);
      const page = await s.raw(url.pathname);
      expect(page.status).toBe(200);
      for (const code of [
        'parameter_invalid',
        'api_key_invalid',
        'resource_missing',
        'outside_retention_window',
        'rate_limit',
        'api_error',
      ]) {
        expect(page.text).toContain(code);
      }
    });
  });

  describe('api_error (run last: drops the database)', () => {
    it('answers 500/503 api_error quoting the Request-Id when Postgres is gone', async () => {
      const admin = new Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      try {
        const name = new URL(s.databaseUrl).pathname.slice(1);
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
      const res = await s.get('/graphs', unusedKey.auth);
      expect([500, 503]).toContain(res.status);
      const e = expectApiError(res, {
        status: res.status,
        type: 'api_error',
        code: 'api_error',
        param: null,
      });
      expect(e.message).toContain(res.headers['request-id']);
    });
  });
});
