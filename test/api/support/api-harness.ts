import { loadConfig } from '@graph-history/config';
import { TEST_METRICS_TOKEN } from '../../support/metrics-token';
import { testRedisKeyPrefix } from '../../support/redis-keys';
import { generateApiKey, hashApiKey, maskApiKey, type WatchEvent } from '@graph-history/domain';
import { AccountRepository, ApiKeyRepository } from '@graph-history/db';
import { createApiApp } from '../../../apps/api/src/api-app';
import { seedGraph } from '../../support/seed';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** A parsed JSON body, read freely by assertions. */
export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Res {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: Json;
}

/** The read API on a fresh database, with helpers to make keys, seed graphs and send requests. */
export class ApiHarness {
  private keyNo = 0;
  /** A secret key of account `acme`, the default for requests. */
  secret = '';

  private constructor(
    readonly t: TestDatabase,
    readonly app: Awaited<ReturnType<typeof createApiApp>>,
    readonly baseUrl: string,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<ApiHarness> {
    // the API's own main opens its Db with the scope of READ_BATCH_SCOPE: the harness's as well
    const t = await createTestDatabase({
      batchScope: env.READ_BATCH_SCOPE === 'graph' ? 'graph' : 'database',
    });
    const config = loadConfig({
      DATABASE_URL: t.url,
      REDIS_URL: process.env.REDIS_URL,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      TRUST_PROXY: 'true',
      METRICS_TOKEN: TEST_METRICS_TOKEN,
      ...env,
    });
    const app = await createApiApp({
      config,
      db: t.db,
      redisKeyPrefix: testRedisKeyPrefix(),
    });
    // Real HTTP: Fastify's inject depends on an ESM-only package Jest cannot load.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const h = new ApiHarness(t, app, await app.getUrl());
    h.secret = await h.key('acme');
    return h;
  }

  async stop(): Promise<void> {
    await this.app.close();
    await this.t.drop();
  }

  /** A new key of the account (created when new); restricted when `graphKeys` is given. */
  async key(accountName: string, graphKeys: string[] | null = null): Promise<string> {
    const account = await new AccountRepository(this.t.db).findOrCreate(accountName, 1);
    const kind = graphKeys ? 'restricted' : 'secret';
    const key = generateApiKey(kind);
    await new ApiKeyRepository(this.t.db).insert({
      keyId: `key_${++this.keyNo}`,
      accountId: account.accountId,
      kind,
      hash: hashApiKey(key),
      masked: maskApiKey(key),
      graphKeys,
      created: 1,
    });
    return key;
  }

  seed(graphKey: string, events: WatchEvent[], accountName = 'acme') {
    return seedGraph(this.t.db, { accountName, graphKey, events });
  }

  /** `clientAddress` is sent as X-Forwarded-For (the harness runs the API with TRUST_PROXY=true). */
  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Res> {
    const key = opts.key === undefined ? this.secret : opts.key;
    const r = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(opts.clientAddress ? { 'x-forwarded-for': opts.clientAddress } : {}),
        ...opts.headers,
      },
      body: opts.body,
      redirect: 'manual',
    });
    const body = await r.text();
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: r.status, headers: Object.fromEntries(r.headers), body, json };
  }

  get(path: string, opts: RequestOptions = {}): Promise<Res> {
    return this.request('GET', path, opts);
  }
}

export interface RequestOptions {
  /** The API key to send as Bearer; null sends none. Default: the harness's secret key. */
  key?: string | null;
  headers?: Record<string, string>;
  clientAddress?: string;
  body?: string;
}
