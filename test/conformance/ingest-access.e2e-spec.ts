import { expectError, expectGraphShape } from './support/contract';
import { type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

/** ingest.md "Endpoint": who may write, graph creation on first write, graph_key. */
describe('conformance: ingest access and graph creation (ingest.md)', () => {
  let s: Services;
  let acme: IssuedKey;
  let acmeRestricted: IssuedKey;
  let other: IssuedKey;

  beforeAll(async () => {
    s = await Services.start();
    [acme, acmeRestricted, other] = await Promise.all([
      s.createKey('acme'),
      s.createKey('acme', ['gph_ing-auth']),
      s.createKey('other'),
    ]);
  }, 90_000);
  afterAll(() => s?.stop());

  const eventCount = (graphKey: string) => s.eventCount(acme.auth, graphKey);

  describe('authentication', () => {
    const batch = () => ({ events: new WatchScript().session('s').events });

    it('refuses a request without a key: 401 authentication_error api_key_invalid', async () => {
      const res = await s.ingestRaw('ing-auth', JSON.stringify(batch()), undefined);
      expectError(res, {
        status: 401,
        type: 'authentication_error',
        code: 'api_key_invalid',
        param: null,
      });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="graph-history"');
    });

    it('refuses an unknown key with 401, masking it in the message', async () => {
      const bogus = 'sk_live_0000000000000000000000000000wxyz';
      const res = await s.ingestRaw('ing-auth', JSON.stringify(batch()), `Bearer ${bogus}`);
      const e = expectError(res, {
        status: 401,
        type: 'authentication_error',
        code: 'api_key_invalid',
        param: null,
      });
      expect(e.message).toContain('sk_live_****wxyz');
      expect(e.message).not.toContain(bogus);
    });

    it('refuses a restricted key with 403 permission_error, storing nothing', async () => {
      const res = await s.ingestRaw('ing-auth', JSON.stringify(batch()), acmeRestricted.auth);
      expectError(res, {
        status: 403,
        type: 'permission_error',
        code: 'api_key_restricted',
        param: null,
      });
      expect(await eventCount('ing-auth')).toBeNull();
    });

    it('accepts a secret key sent with HTTP basic authentication', async () => {
      const basic = `Basic ${Buffer.from(`${acme.key}:`).toString('base64')}`;
      const res = await s.ingestRaw('ing-basic', JSON.stringify(batch()), basic);
      expect(res.status).toBe(202);
    });
  });

  describe('graph creation and graph_key', () => {
    it('creates gph_<graph_key> with source "watch" under the key account on the first write', async () => {
      const script = new WatchScript().session('root', { title: 'first' });
      await s.load(acme, 'ing-new', script.events);
      const graph = await s.read('/graphs/gph_ing-new', acme.auth);
      expectGraphShape(graph);
      expect(graph.id).toBe('gph_ing-new');
      expect(graph.source).toBe('watch');
      const list = await s.read('/graphs?limit=1000', acme.auth);
      expect(list.data.map((g: { id: string }) => g.id)).toContain('gph_ing-new');
      expect((await s.get('/graphs/gph_ing-new', other.auth)).status).toBe(404);
    });

    it('accepts graph keys of 1 and 64 characters of [A-Za-z0-9_-]', async () => {
      const key64 = 'Az09_-'.repeat(10) + 'abcd';
      expect(key64).toHaveLength(64);
      for (const key of ['x', key64]) {
        const res = await s.ingest(key, new WatchScript().session('s').events, acme.auth);
        expect([key, res.status]).toEqual([key, 202]);
        await s.waitForEventCount(acme.auth, key, 1);
      }
    });

    it.each([
      ['65 characters', 'a'.repeat(65)],
      ['a dot', 'a.b'],
      ['a space', 'a b'],
      ['a non-ASCII letter', 'caf\u00e9'],
    ])('refuses a graph_key with %s: 400 parameter_invalid param graph_key', async (_what, key) => {
      const res = await s.ingest(key, new WatchScript().session('s').events, acme.auth);
      expectError(res, {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'graph_key',
      });
    });

    it('answers 409 graph_key_taken to another account writing to a taken key, and stores nothing', async () => {
      await s.load(acme, 'ing-taken', new WatchScript().session('s').events);
      const res = await s.ingest(
        'ing-taken',
        new WatchScript().session('intruder').events,
        other.auth,
      );
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('graph_key_taken');
      expect(typeof res.body.error.message).toBe('string');
      expect(await eventCount('ing-taken')).toBe(1);
      expect((await s.get('/graphs/gph_ing-taken', other.auth)).status).toBe(404);
    });

    it('does not create the graph when the first batch is refused', async () => {
      const bad = new WatchScript().event('bogus.type', 's').events;
      expect((await s.ingest('ing-refused-first', bad, acme.auth)).status).toBe(400);
      expect(await eventCount('ing-refused-first')).toBeNull();
      const res = await s.ingest(
        'ing-refused-first',
        new WatchScript().session('s').events,
        other.auth,
      );
      expect(res.status).toBe(202);
    });
  });
});
