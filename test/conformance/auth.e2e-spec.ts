import { Client } from 'pg';
import { expectApiError, expectRequestId } from './support/contract';
import { type IssuedKey, Services } from './support/services';
import { waitUntil } from '../support/wait';
import { WatchScript } from './support/watch-events';

/** read-api.md section 5 and decisions.md "Keys", over HTTP. */
describe('conformance: authentication and access', () => {
  let s: Services;
  let acme: IssuedKey;
  let restricted: IssuedKey;
  let other: IssuedKey;
  let nodeOfA: string;

  beforeAll(async () => {
    s = await Services.start();
    [acme, restricted, other] = await Promise.all([
      s.createKey('acme'),
      s.createKey('acme', ['gph_auth-a', 'gph_auth-o']),
      s.createKey('other'),
    ]);
    await s.load(acme, 'auth-a', new WatchScript().session('s').events);
    await s.load(acme, 'auth-b', new WatchScript().session('s').events);
    await s.load(other, 'auth-o', new WatchScript().session('s').events);
    nodeOfA = (await s.read('/graphs/gph_auth-a/nodes', acme.auth)).data[0].id;
  }, 90_000);
  afterAll(() => s?.stop());

  const invalidKey = (res: Parameters<typeof expectApiError>[0]) => {
    const e = expectApiError(res, {
      status: 401,
      type: 'authentication_error',
      code: 'api_key_invalid',
      param: null,
    });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="graph-history"');
    return e;
  };

  describe('401 api_key_invalid', () => {
    it('answers a request without a key with 401 and WWW-Authenticate', async () => {
      invalidKey(await s.get('/graphs', undefined));
    });

    it.each([
      ['sk_live_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZabcd', 'sk_live_****abcd'],
      ['rk_live_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZa1b2', 'rk_live_****a1b2'],
    ])(
      'masks the unknown key %s as its prefix, **** and its last 4 characters',
      async (bogus, masked) => {
        const e = invalidKey(await s.get('/graphs', `Bearer ${bogus}`));
        expect(e.message).toContain(masked);
        expect(e.message).not.toContain(bogus);
      },
    );

    it('refuses an unsupported Authorization scheme', async () => {
      invalidKey(await s.get('/graphs', `Token ${acme.key}`));
    });

    it('never echoes a malformed key whole', async () => {
      const junk = 'not-a-key-at-all-1234567890';
      const e = invalidKey(await s.get('/graphs', `Bearer ${junk}`));
      expect(e.message).not.toContain(junk);
    });

    it('refuses an unknown key sent with basic authentication', async () => {
      const basic = `Basic ${Buffer.from('sk_live_YYYYYYYYYYYYYYYYYYYYYYYYYYYYwxyz:').toString('base64')}`;
      const e = invalidKey(await s.get('/graphs', basic));
      expect(e.message).toContain('sk_live_****wxyz');
    });

    it('stops accepting a revoked key within 5 seconds', async () => {
      const doomed = await s.createKey('acme');
      expect((await s.get('/graphs', doomed.auth)).status).toBe(200);
      await s.revokeKey(doomed.id);
      const revokedAt = Date.now();
      const res = await waitUntil(
        'the revoked key to be refused',
        async () => {
          const r = await s.get('/graphs', doomed.auth);
          return r.status === 401 ? r : undefined;
        },
        10_000,
      );
      expect(Date.now() - revokedAt).toBeLessThan(6_000);
      invalidKey(res);
    });
  });

  describe('key storage (decisions.md: stored hashed, never in clear)', () => {
    it('keeps no issued key in clear anywhere in the database', async () => {
      const db = new Client({ connectionString: s.databaseUrl });
      await db.connect();
      try {
        const columns = await db.query<{ table_name: string; column_name: string }>(
          `SELECT table_name, column_name FROM information_schema.columns
            WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'bytea', 'ARRAY')`,
        );
        expect(columns.rows.length).toBeGreaterThan(0);
        const columnsHolding = async (text: string): Promise<string[]> => {
          const hits: string[] = [];
          for (const { table_name: table, column_name: column } of columns.rows) {
            const hit = await db.query(
              `SELECT 1 FROM "${table}" WHERE "${column}"::text LIKE $1 LIMIT 1`,
              [`%${text}%`],
            );
            if (hit.rowCount) hits.push(`${table}.${column}`);
          }
          return hits;
        };
        for (const key of [acme.key, restricted.key, other.key]) {
          expect(await columnsHolding(key.slice(key.lastIndexOf('_') + 1))).toEqual([]);
        }
        // The search does find what is stored: the masked form (docs/api-reference.md, Keys).
        const masked = `${acme.key.slice(0, acme.key.lastIndexOf('_') + 1)}****${acme.key.slice(-4)}`;
        expect((await columnsHolding(masked)).length).toBeGreaterThan(0);
      } finally {
        await db.end();
      }
    });
  });

  describe('valid keys', () => {
    it('reads with Authorization: Bearer', async () => {
      const res = await s.get('/graphs', acme.auth);
      expect(res.status).toBe(200);
      expectRequestId(res);
    });

    it('reads with basic authentication: the key as user name, empty password', async () => {
      const basic = `Basic ${Buffer.from(`${acme.key}:`).toString('base64')}`;
      const res = await s.get('/graphs', basic);
      expect(res.status).toBe(200);
      expect(res.body.data.map((g: { id: string }) => g.id).sort()).toEqual([
        'gph_auth-a',
        'gph_auth-b',
      ]);
    });

    it('lists only the graphs of the key account', async () => {
      const ids = (await s.read('/graphs', other.auth)).data.map((g: { id: string }) => g.id);
      expect(ids).toEqual(['gph_auth-o']);
    });
  });

  describe('another account graph: 404 resource_missing, never a hint', () => {
    const paths = (graph: string) => [
      `/graphs/${graph}`,
      `/graphs/${graph}/nodes`,
      `/graphs/${graph}/events`,
    ];

    it.each(paths('gph_auth-o'))(
      'GET %s with the acme key is 404 resource_missing',
      async (path) => {
        expectApiError(await s.get(path, acme.auth), {
          status: 404,
          type: 'invalid_request_error',
          code: 'resource_missing',
        });
      },
    );

    it('answers exactly as for a graph that does not exist', async () => {
      const strip = (body: { error: Record<string, unknown> }, id: string) =>
        JSON.stringify(body.error).split(id).join('<id>');
      const foreign = await s.get('/graphs/gph_auth-o', acme.auth);
      const missing = await s.get('/graphs/gph_auth-none', acme.auth);
      expect(foreign.status).toBe(missing.status);
      expect(strip(foreign.body, 'gph_auth-o')).toBe(strip(missing.body, 'gph_auth-none'));
      expect(missing.body.error.param).toBe('graph_id');
    });

    it('hides a node of the acme graph behind another account graph id', async () => {
      const res = await s.get(`/graphs/gph_auth-o/nodes/${nodeOfA}`, acme.auth);
      expectApiError(res, { status: 404, type: 'invalid_request_error', code: 'resource_missing' });
    });
  });

  describe('the viewer url', () => {
    // read-api.md 2: "Viewer address. Only the owning account can open it"; 5.4: "The viewer
    // `url` of a graph opens only for the owning account."
    it('opens for the owning account', async () => {
      const { url } = await s.read('/graphs/gph_auth-a', acme.auth);
      const path = new URL(url).pathname;
      const res = await s.raw(path, { auth: acme.auth });
      expect([path, res.status]).toEqual([path, 200]);
    });

    it('does not open for another account', async () => {
      const { url } = await s.read('/graphs/gph_auth-a', acme.auth);
      const res = await s.raw(new URL(url).pathname, { auth: other.auth });
      expect(res.status).toBe(404);
    });
  });

  describe('restricted keys', () => {
    it('list only the graphs they may read (not another account graph they name)', async () => {
      const ids = (await s.read('/graphs', restricted.auth)).data.map((g: { id: string }) => g.id);
      expect(ids).toEqual(['gph_auth-a']);
    });

    it.each(['/graphs/gph_auth-a', '/graphs/gph_auth-a/nodes', '/graphs/gph_auth-a/events'])(
      'read %s of a listed graph',
      async (path) => {
        expect((await s.get(path, restricted.auth)).status).toBe(200);
      },
    );

    it.each([
      '/graphs/gph_auth-b',
      '/graphs/gph_auth-b/nodes',
      '/graphs/gph_auth-b/events',
      '/graphs/gph_auth-b/nodes/node_x',
    ])('get 403 permission_error api_key_restricted on %s', async (path) => {
      expectApiError(await s.get(path, restricted.auth), {
        status: 403,
        type: 'permission_error',
        code: 'api_key_restricted',
        param: null,
      });
    });

    it('read a listed graph that is created after the key', async () => {
      const early = await s.createKey('acme', ['gph_auth-later']);
      expect((await s.read('/graphs', early.auth)).data).toEqual([]);
      await s.load(acme, 'auth-later', new WatchScript().session('s').events);
      expect((await s.get('/graphs/gph_auth-later', early.auth)).status).toBe(200);
      expect((await s.read('/graphs', early.auth)).data.map((g: { id: string }) => g.id)).toEqual([
        'gph_auth-later',
      ]);
    });

    it('get 404 resource_missing for another account graph even when they name it', async () => {
      expectApiError(await s.get('/graphs/gph_auth-o', restricted.auth), {
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
      });
    });
  });
});
