import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@graph-history/config';
import { createApiApp } from '../../apps/api/src/api-app';
import { createIngestorApp } from '../../apps/ingestor/src/create-ingestor-app';
import { uniqueQueuePrefix, deleteQueueKeys } from '../ingestor/support/ingestor-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

const TOKEN = 'metrics-access-token-abcdef';

describe.each([
  ['read API', 'graph_history_api_'],
  ['ingestor', 'graph_history_events_stored_total'],
])('/metrics of the %s', (app, sample) => {
  let t: TestDatabase;
  const prefix = uniqueQueuePrefix();
  beforeAll(async () => (t = await createTestDatabase()));
  afterAll(async () => {
    await deleteQueueKeys(prefix);
    await t.drop();
  });

  async function serve(metricsToken: string | undefined): Promise<NestFastifyApplication> {
    const config = loadConfig({
      DATABASE_URL: t.url,
      REDIS_URL: process.env.REDIS_URL,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'silent',
      METRICS_TOKEN: metricsToken,
    });
    const nest =
      app === 'read API'
        ? await createApiApp({ config, db: t.db })
        : await createIngestorApp({ config, db: t.db, runWorkers: false });
    await nest.listen({ port: 0, host: '127.0.0.1' });
    return nest;
  }

  const get = async (nest: NestFastifyApplication, authorization?: string) => {
    const res = await fetch(`${await nest.getUrl()}/metrics`, {
      headers: authorization ? { authorization } : {},
    });
    return { status: res.status, headers: res.headers, body: await res.text() };
  };

  it('is off (404 in the error envelope) when METRICS_TOKEN is not set', async () => {
    const nest = await serve(undefined);
    try {
      const res = await get(nest, `Bearer ${TOKEN}`);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body).error).toMatchObject({
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: expect.stringContaining('METRICS_TOKEN'),
      });
    } finally {
      await nest.close();
    }
  });

  it('answers 401 without the token or with another one, and the metrics with it', async () => {
    const nest = await serve(TOKEN);
    try {
      for (const auth of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`]) {
        const res = await get(nest, auth);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
        expect(JSON.parse(res.body).error).toMatchObject({
          type: 'authentication_error',
          code: 'metrics_token_invalid',
        });
      }
      const ok = await get(nest, `Bearer ${TOKEN}`);
      expect(ok.status).toBe(200);
      expect(ok.body).toContain(sample);
    } finally {
      await nest.close();
    }
  });
});

it('METRICS_TOKEN shorter than 16 characters stops start-up with one line', () => {
  expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
    /^Invalid configuration: METRICS_TOKEN="short": must be at least 16 characters$/,
  );
});
