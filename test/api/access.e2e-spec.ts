import { ApiKeyRepository } from '@graph-history/db';
import { hashApiKey, maskApiKey } from '@graph-history/domain';
import { ApiHarness, Json } from './support/api-harness';
import { EventScript } from './support/watch-events';

/** Authentication, keys, the error envelope, methods, unknown URLs and parameters, Request-Id. */
describe('read API: access and protocol', () => {
  let h: ApiHarness;
  const basic = (key: string) => ({
    authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
  });

  beforeAll(async () => {
    h = await ApiHarness.start();
    const s = new EventScript();
    s.session('s1').agent('s1/a', 's1');
    await h.seed('shared', s.events);
    await h.seed('private', new EventScript().session('p1').events);
    await h.seed('theirs', new EventScript().session('t1').events, 'globex');
  });
  afterAll(() => h.stop());

  const expectError = (
    r: { status: number; json: Json },
    status: number,
    type: string,
    code: string,
    param: string | null,
  ) => {
    expect(r.status).toBe(status);
    expect(r.json.error).toMatchObject({ type, code, param });
    expect(typeof r.json.error.message).toBe('string');
    expect(r.json.error.doc_url).toMatch(new RegExp(`/docs/errors#${code}$`));
  };

  it('accepts the key as Bearer and as the basic-auth user name', async () => {
    expect((await h.get('/api/v1/graphs')).status).toBe(200);
    expect((await h.get('/api/v1/graphs', { key: null, headers: basic(h.secret) })).status).toBe(
      200,
    );
  });

  it('answers 401 api_key_invalid with WWW-Authenticate when no key is sent', async () => {
    const r = await h.get('/api/v1/graphs', { key: null });
    expectError(r, 401, 'authentication_error', 'api_key_invalid', null);
    expect(r.headers['www-authenticate']).toBe('Bearer realm="graph-history"');
  });

  it('masks an unknown key in the message', async () => {
    const bogus = 'sk_live_' + 'Z'.repeat(28) + 'q9w8';
    const r = await h.get('/api/v1/graphs', { key: bogus });
    expectError(r, 401, 'authentication_error', 'api_key_invalid', null);
    expect(r.json.error.message).toContain('sk_live_****q9w8');
    expect(r.json.error.message).not.toContain(bogus);
  });

  it('says how to send a key given without `Bearer ` (still 401 api_key_invalid)', async () => {
    const r = await h.get('/api/v1/graphs', { key: null, headers: { authorization: h.secret } });
    expectError(r, 401, 'authentication_error', 'api_key_invalid', null);
    expect(r.json.error.message).toBe(
      `The Authorization header does not start with \`Bearer \`: send the key as \`Authorization: Bearer ${maskApiKey(h.secret)}\` (or as the basic-auth user name).`,
    );
    expect(r.json.error.message).not.toContain(h.secret);
  });

  it('says a revoked key was revoked (still 401 api_key_invalid)', async () => {
    const doomed = await h.key('acme');
    const row = await new ApiKeyRepository(h.t.db).findActiveByHash(hashApiKey(doomed));
    await new ApiKeyRepository(h.t.db).revoke(row!.keyId, Date.UTC(2026, 10, 27, 5));
    const r = await h.get('/api/v1/graphs', { key: doomed });
    expectError(r, 401, 'authentication_error', 'api_key_invalid', null);
    expect(r.json.error.message).toBe(
      `The API key ${maskApiKey(doomed)} was revoked (2026-11-27T05:00:00.000Z). Use another key of the account, or create a new one.`,
    );
  });

  it('refuses an as_of given as a date and time, and gives its ms (400 parameter_invalid)', async () => {
    const r = await h.get('/api/v1/graphs/gph_shared?as_of=2026-11-27T05:10:00Z');
    expectError(r, 400, 'invalid_request_error', 'parameter_invalid', 'as_of');
    expect(r.json.error.message).toBe(
      'as_of must be an event id (evt_…) or a time in Unix milliseconds; got "2026-11-27T05:10:00Z". For 2026-11-27T05:10:00Z, use as_of=1795756200000.',
    );
  });

  it('lets a restricted key read only its graphs (403 api_key_restricted otherwise)', async () => {
    const rk = await h.key('acme', ['shared']);
    expect((await h.get('/api/v1/graphs/gph_shared', { key: rk })).status).toBe(200);
    expectError(
      await h.get('/api/v1/graphs/gph_private', { key: rk }),
      403,
      'permission_error',
      'api_key_restricted',
      null,
    );
    expectError(
      await h.get('/api/v1/graphs/gph_private/nodes', { key: rk }),
      403,
      'permission_error',
      'api_key_restricted',
      null,
    );
    const list = await h.get('/api/v1/graphs', { key: rk });
    expect(list.json.data.map((g: { id: string }) => g.id)).toEqual(['gph_shared']);
  });

  it('hides graphs of other accounts behind resource_missing', async () => {
    expectError(
      await h.get('/api/v1/graphs/gph_theirs'),
      404,
      'invalid_request_error',
      'resource_missing',
      'graph_id',
    );
    expectError(
      await h.get('/api/v1/graphs/gph_nope'),
      404,
      'invalid_request_error',
      'resource_missing',
      'graph_id',
    );
    expectError(
      await h.get('/api/v1/graphs/not-a-graph-id'),
      404,
      'invalid_request_error',
      'resource_missing',
      'graph_id',
    );
    expect(
      (await h.get('/api/v1/graphs')).json.data.map((g: { id: string }) => g.id).sort(),
    ).toEqual(['gph_private', 'gph_shared']);
  });

  it('answers unknown URLs with 404 resource_missing, param null', async () => {
    expectError(
      await h.get('/api/v1/nope'),
      404,
      'invalid_request_error',
      'resource_missing',
      null,
    );
    expectError(
      await h.get('/api/v2/graphs'),
      404,
      'invalid_request_error',
      'resource_missing',
      null,
    );
  });

  it('answers other methods with 405 method_not_allowed and Allow', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const r = await h.request(method, '/api/v1/graphs');
      expectError(r, 405, 'invalid_request_error', 'method_not_allowed', null);
      expect(r.headers.allow).toBe('GET, HEAD');
    }
  });

  it('serves HEAD like GET without a body', async () => {
    const get = await h.get('/api/v1/graphs/gph_shared');
    const head = await h.request('HEAD', '/api/v1/graphs/gph_shared');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect((await h.request('HEAD', '/api/v1/graphs/gph_nope')).status).toBe(404);
  });

  it('names unknown query parameters (parameter_unknown) and refuses repeated scalars', async () => {
    expectError(
      await h.get('/api/v1/graphs?limt=5'),
      400,
      'invalid_request_error',
      'parameter_unknown',
      'limt',
    );
    expectError(
      await h.get('/api/v1/graphs/gph_shared?expand[]=x'),
      400,
      'invalid_request_error',
      'parameter_unknown',
      'expand[]',
    );
    expectError(
      await h.get('/api/v1/graphs?limit=5&limit=6'),
      400,
      'invalid_request_error',
      'parameter_invalid',
      'limit',
    );
    expectError(
      await h.get('/api/v1/graphs/gph_shared/events?order=up'),
      400,
      'invalid_request_error',
      'parameter_invalid',
      'order',
    );
    expectError(
      await h.get('/api/v1/graphs?limit=abc'),
      400,
      'invalid_request_error',
      'parameter_invalid',
      'limit',
    );
    expectError(
      await h.get('/api/v1/graphs?limit=1.5'),
      400,
      'invalid_request_error',
      'parameter_invalid',
      'limit',
    );
    expectError(
      await h.get('/api/v1/graphs?limit=-1'),
      400,
      'invalid_request_error',
      'parameter_invalid',
      'limit',
    );
    expectError(
      await h.get('/api/v1/graphs?limit=99999999999999999999'),
      400,
      'invalid_request_error',
      'parameter_invalid',
      'limit',
    );
    expectError(
      await h.get('/api/v1/graphs?last_event[gt]=soon'),
      400,
      'invalid_request_error',
      'parameter_invalid',
      'last_event[gt]',
    );
    expectError(
      await h.get('/api/v1/graphs?starting_after=gph_shared&ending_before=gph_shared'),
      400,
      'invalid_request_error',
      'parameter_invalid',
      'ending_before',
    );
  });

  it('never answers 500 to malformed input', async () => {
    const nasty = [
      '/api/v1/graphs/%E0%A4%A',
      '/api/v1/graphs/gph_shared/nodes/%00',
      `/api/v1/graphs/gph_shared/nodes/node_${'z'.repeat(500)}`,
      '/api/v1/graphs/gph_shared?as_of=%FF',
      '/api/v1/graphs/gph_shared/events?starting_after=evt_%27%3B--',
      '/api/v1/graphs/gph_shared/nodes?parent_id=&limit=',
      '/api/v1/graphs/gph_shared/events?expand[]=..',
      `/api/v1/graphs/${'x'.repeat(3000)}`,
    ];
    for (const url of nasty) {
      const r = await h.get(url);
      expect({ url, status: Math.floor(r.status / 100), code: r.json?.error?.code }).toEqual({
        url,
        status: 4,
        code: expect.any(String),
      });
    }
  });

  it('puts a Request-Id on every response, and api_error messages would quote it', async () => {
    for (const r of [
      await h.get('/api/v1/graphs'),
      await h.get('/api/v1/graphs', { key: null }),
      await h.get('/api/v1/nope'),
      await h.request('POST', '/api/v1/graphs'),
      await h.get('/docs', { key: null }),
    ]) {
      expect(r.headers['request-id']).toMatch(/^req_[0-9A-Za-z]{16}$/);
    }
  });

  it('serves the OpenAPI document and the docs without a key', async () => {
    const spec = await h.get('/api/v1/openapi.json', { key: null });
    expect(spec.status).toBe(200);
    expect(spec.json.openapi).toBe('3.1.0');
    const docs = await h.get('/docs', { key: null });
    expect(docs.status).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
    const errors = await h.get('/docs/errors', { key: null });
    for (const code of [
      'parameter_invalid',
      'parameter_unknown',
      'expand_too_deep',
      'expand_too_large',
      'api_key_invalid',
      'api_key_restricted',
      'resource_missing',
      'node_not_yet_created',
      'outside_retention_window',
      'rate_limit',
      'api_error',
      'method_not_allowed',
    ]) {
      expect(errors.body).toContain(`id="${code}"`);
    }
  });

  it('sends a strong ETag and answers a matching If-None-Match with 304 and no body', async () => {
    for (const url of [
      '/api/v1/graphs',
      '/api/v1/graphs/gph_shared',
      '/api/v1/graphs/gph_shared/nodes',
      '/api/v1/graphs/gph_shared/events',
    ]) {
      const first = await h.get(url);
      const etag = first.headers.etag!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await h.get(url, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expect(
        (await h.get(url, { headers: { 'if-none-match': `W/${etag}, "other"` } })).status,
      ).toBe(304);
      expect((await h.get(url, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    }
  });

  it('changes the ETag exactly when the body changes', async () => {
    const url = '/api/v1/graphs/gph_private';
    const a = await h.get(url);
    const b = await h.get(url);
    expect(b.body).toBe(a.body);
    expect(b.headers.etag).toBe(a.headers.etag);
    await h.seed('private', new EventScript(1_700_000_100_000).status('p1', 'idle').events);
    const c = await h.get(url);
    expect(c.body).not.toBe(a.body);
    expect(c.headers.etag).not.toBe(a.headers.etag);
    expect((await h.get(url, { headers: { 'if-none-match': a.headers.etag! } })).status).toBe(200);
  });
});
