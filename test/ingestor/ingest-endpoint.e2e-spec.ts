import { TestKey, createKey } from './support/api-keys';
import { EndpointFixture, endpointFixture } from './support/endpoint-fixture';
import { validRun, watchEvent } from './support/watch-events';
import { metricsAuth } from '../support/metrics-token';

/** ingest.md's endpoint over HTTP: keys, graph creation, body limits, operations endpoints. */
describe('POST /ingest/v1/graphs/{graph_key}/events', () => {
  let f: EndpointFixture;
  const post = (...args: Parameters<EndpointFixture['post']>) => f.post(...args);
  const graphRow = (graphKey: string) => f.graphRow(graphKey);
  const inboxOf = (graphKey: string) => f.inboxOf(graphKey);
  let owner: TestKey;
  let other: TestKey;
  let restricted: TestKey;

  beforeAll(async () => {
    f = await endpointFixture();
    owner = f.owner;
    other = await createKey(f.t.db, 'other');
    restricted = await createKey(f.t.db, 'owner', ['g1']);
  });
  afterAll(() => f.close());

  describe('authentication', () => {
    it('answers 401 api_key_invalid without a key or with an unknown one, with the envelope and a Request-Id', async () => {
      for (const auth of [null, 'Bearer sk_live_00000000000000000000000000000000']) {
        const res = await post('auth-g', { events: validRun('a', 1) }, auth);
        expect(res.statusCode).toBe(401);
        expect(res.headers.get('request-id')).toMatch(/^req_/);
        expect(res.json().error).toMatchObject({
          type: 'authentication_error',
          code: 'api_key_invalid',
          param: null,
        });
      }
      expect(await graphRow('auth-g')).toBeUndefined();
    });

    it('refuses restricted keys with 403 permission_error, storing nothing', async () => {
      const res = await post('g1', { events: validRun('r', 1) }, restricted.auth);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({
        type: 'permission_error',
        code: 'api_key_restricted',
      });
      expect(await graphRow('g1')).toBeUndefined();
    });

    it('accepts the key as the basic-auth user name too', async () => {
      const basic = `Basic ${Buffer.from(`${owner.key}:`).toString('base64')}`;
      const res = await post('basic-g', { events: validRun('b', 2) }, basic);
      expect(res.statusCode).toBe(202);
    });
  });

  describe('graph creation', () => {
    it('creates gph_<key> with source watch under the key account on first write', async () => {
      const res = await post('first-write', { events: validRun('fw', 3) });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ accepted: 3, duplicates: 0, last_key: 'fw-2' });
      const g = await graphRow('first-write');
      expect(g).toMatchObject({
        account_id: owner.accountId,
        source: 'watch',
        ingested_seq: 3,
        applied_seq: 0,
      });
      const dir = await f.t.db
        .selectFrom('graph_directory')
        .selectAll()
        .where('graph_key', '=', 'first-write')
        .executeTakeFirst();
      expect(dir).toMatchObject({ graph_id: g!.graph_id, account_id: owner.accountId });
    });

    it('answers 409 graph_key_taken when another account holds the key, storing nothing', async () => {
      expect((await post('taken', { events: validRun('tk', 1) })).statusCode).toBe(202);
      const res = await post('taken', { events: validRun('tk2', 2) }, other.auth);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        type: 'invalid_request_error',
        code: 'graph_key_taken',
        param: 'graph_key',
      });
      expect(await inboxOf('taken')).toHaveLength(1);
    });

    it("judges a batch to another account's key as one to a free key: the same 400, 409 only for a batch that would claim it", async () => {
      expect((await post('held', { events: validRun('hd', 11) })).statusCode).toBe(202);
      const bodies = {
        // valid only against the holder's graph: its session and agent exist there
        'the holder refs': [watchEvent('x-1', 'status', 'hd-s/a0', { state: 'idle' })],
        'a bad event': [watchEvent('x-2', 'session.started', 'x-s', { title: 7 })],
        // the holder stored this key: a duplicate there, a new session on a free key
        'a key the holder stored': [watchEvent('hd-0', 'status', 'x-s', { state: 'idle' })],
      };
      for (const events of Object.values(bodies)) {
        const onHeld = await post('held', { events }, other.auth);
        const onFree = await post('never-claimed', { events }, other.auth);
        expect({ status: onHeld.statusCode, error: onHeld.json().error }).toEqual({
          status: onFree.statusCode,
          error: onFree.json().error,
        });
        expect(onHeld.statusCode).toBe(400);
      }
      const taken = await post('held', { events: validRun('hx', 2) }, other.auth);
      expect(taken.statusCode).toBe(409);
      expect(taken.json().error.message).not.toMatch(/owner|acme|account \w+ /i);
      expect(await graphRow('never-claimed')).toBeUndefined();
      expect(await inboxOf('held')).toHaveLength(11);
    });

    it.each([
      ['bad.key', 'bad.key'],
      ['65 characters', 'k'.repeat(65)],
      ['300 characters', 'k'.repeat(300)],
      ['an encoded slash', 'a%2Fb'],
    ])('answers 400 parameter_invalid param graph_key for %s', async (_, graphKey) => {
      const res = await post(graphKey, { events: validRun('gk', 1) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'parameter_invalid', param: 'graph_key' });
    });

    it('accepts a 64-character key of every allowed character class', async () => {
      const key = `Az09_-${'x'.repeat(58)}`;
      expect((await post(key, { events: validRun('k64', 1) })).statusCode).toBe(202);
    });
  });

  describe('body', () => {
    it.each([
      ['no events field', {}],
      ['events not an array', { events: { a: 1 } }],
      ['an empty batch', { events: [] }],
      ['1,001 events', { events: validRun('big', 1001) }],
      ['a JSON array body', []],
    ])('answers 400 parameter_invalid param events for %s', async (_, body) => {
      const res = await post('body-g', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'events',
      });
      expect(await graphRow('body-g')).toBeUndefined();
    });

    it('accepts exactly 1,000 events', async () => {
      const res = await post('thousand', { events: validRun('th', 1000) });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toMatchObject({ accepted: 1000, duplicates: 0, last_key: 'th-999' });
    });

    it('answers 400 parameter_unknown for an unknown top-level field', async () => {
      const res = await post('body-g', { events: validRun('u', 1), extra: true });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'parameter_unknown', param: 'extra' });
    });

    it('answers 400 in the envelope for malformed JSON', async () => {
      const res = await post('body-g', '{"events": [');
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'body',
      });
    });

    it('answers 415 unsupported_media_type for a body that is not JSON', async () => {
      const res = await post('body-g', '<events/>', owner.auth, {
        'content-type': 'application/xml',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().error).toMatchObject({
        type: 'invalid_request_error',
        code: 'unsupported_media_type',
      });
    });

    it('answers 413 request_too_large above 4 MiB and accepts a body just below it', async () => {
      const filler = 'x'.repeat(19_000);
      const event = (i: number) =>
        watchEvent(
          `big-${i}`,
          i === 0 ? 'session.started' : 'activity',
          'big-s',
          i === 0 ? {} : { summary: filler },
        );
      const nearLimit = { events: Array.from({ length: 215 }, (_, i) => event(i)) };
      const size = Buffer.byteLength(JSON.stringify(nearLimit));
      expect(size).toBeGreaterThan(4_000_000);
      expect(size).toBeLessThanOrEqual(4 * 1024 * 1024);
      expect((await post('near-limit', nearLimit)).statusCode).toBe(202);

      const tooBig = { events: Array.from({ length: 230 }, (_, i) => event(i)) };
      expect(Buffer.byteLength(JSON.stringify(tooBig))).toBeGreaterThan(4 * 1024 * 1024);
      const res = await post('too-big', tooBig);
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toMatchObject({
        type: 'invalid_request_error',
        code: 'request_too_large',
      });
      expect(await graphRow('too-big')).toBeUndefined();
    });
  });

  describe('operations', () => {
    it('serves /healthz and /readyz without a key, and /metrics with METRICS_TOKEN', async () => {
      expect((await f.app.request('GET', '/healthz')).json()).toEqual({ status: 'ok' });
      const ready = await f.app.request('GET', '/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ ready: true, checks: { postgres: 'ok', redis: 'ok' } });
      const metrics = await f.app.request('GET', '/metrics', { headers: metricsAuth });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.body).toMatch(/graph_history_events_stored_total \d+/);
      expect(
        Number(/graph_history_events_stored_total (\d+)/.exec(metrics.body)![1]),
      ).toBeGreaterThan(0);
      expect(metrics.body).toContain('graph_history_job_failures_total');
    });

    it('answers an unknown URL with 404 resource_missing in the envelope, whatever the method', async () => {
      for (const method of ['GET', 'POST']) {
        const res = await f.app.request(method, '/ingest/v1/nope', {
          headers: { authorization: owner.auth },
        });
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toMatchObject({ code: 'resource_missing', param: null });
      }
    });
  });

  describe('methods', () => {
    it.each(['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])(
      'answers %s on the events path with 405 method_not_allowed and Allow: POST, before asking for a key',
      async (method) => {
        const res = await f.app.request(method, '/ingest/v1/graphs/g405/events');
        expect(res.statusCode).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        expect(res.headers.get('request-id')).toMatch(/^req_/);
        const { error } = res.json();
        expect(error).toMatchObject({
          type: 'invalid_request_error',
          code: 'method_not_allowed',
          param: null,
        });
        expect(error.message).toContain(`The ${method} method`);
        expect(error.doc_url).toMatch(/\/docs\/errors#method_not_allowed$/);
      },
    );

    it('answers HEAD on the events path with 405 and no body', async () => {
      const res = await f.app.request('HEAD', '/ingest/v1/graphs/g405/events', {
        headers: { authorization: owner.auth },
      });
      expect(res.statusCode).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body).toBe('');
    });

    it('stores nothing from a valid batch sent with PUT', async () => {
      const res = await f.app.request('PUT', '/ingest/v1/graphs/put-g/events', {
        headers: { authorization: owner.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ events: validRun('put', 1) }),
      });
      expect(res.statusCode).toBe(405);
      expect(await graphRow('put-g')).toBeUndefined();
    });
  });
});
