import { deleteRedisKeys, testQueuePrefix } from '../../support/redis-keys';
import { type TestDatabase, createTestDatabase } from '../../support/test-database';
import { ServiceProcess } from '../../support/service-process';
import { type IssuedKey, createKeyWithCli, revokeKeyWithCli, runCli, type CliResult } from './cli';
import { type HttpOptions, type HttpResponse, httpCall, uniqueLoopbackAddress } from './http';
import { waitUntil } from '../../support/wait';
import { freePort, twoFreePorts } from '../../support/free-port';

export type { HttpResponse } from './http';
export type { IssuedKey } from './cli';

/**
 * createTestDatabase, retried while another jest run in this checkout rebuilds the shared
 * template (its global setup drops and re-creates it, and holds it while migrating).
 */
async function cloneTemplateDatabase(): Promise<TestDatabase> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createTestDatabase();
    } catch (err) {
      const busy = /template database .* does not exist|is being accessed by other users/.test(
        String(err),
      );
      if (!busy || attempt === 20) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

export interface RequestOptions extends HttpOptions {
  /** `Authorization` header value; omitted means no credentials. */
  auth?: string;
}

/**
 * Per-key read limits far above what a suite sends, so that only the rate-limit suite (which
 * passes its own small values) meets 429s.
 */
const UNLIMITED = { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' };

/** Maximum events per ingest request (ingest.md). */
const BATCH = 1_000;

/**
 * The built ingestor and read API, started as child processes on free ports with a cloned
 * database of their own. Everything is reached over HTTP or the CLI, as an outside client would.
 */
export class Services {
  private readonly sentPerGraph = new Map<string, number>();

  private constructor(
    private readonly database: TestDatabase,
    private readonly queuePrefix: string,
    private ingestor: ServiceProcess,
    private readonly api: ServiceProcess,
    readonly localAddress: string,
  ) {}

  static async start(apiEnv: Record<string, string> = {}): Promise<Services> {
    const database = await cloneTemplateDatabase();
    const queuePrefix = testQueuePrefix();
    const env = Services.env(database.url, queuePrefix);
    const [apiPort, ingestPort] = await twoFreePorts();
    const [ingestor, api] = await Promise.all([
      Services.startIngestor(env, ingestPort),
      ServiceProcess.start('api', apiPort, {
        ...env,
        ...UNLIMITED,
        ...apiEnv,
        PORT: String(apiPort),
        HOST: '127.0.0.1',
      }),
    ]);
    return new Services(database, queuePrefix, ingestor, api, uniqueLoopbackAddress());
  }

  private static env(databaseUrl: string, queuePrefix: string): Record<string, string> {
    return { DATABASE_URL: databaseUrl, QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'warn' };
  }

  private static async startIngestor(
    env: Record<string, string>,
    port?: number,
  ): Promise<ServiceProcess> {
    port ??= await freePort();
    return ServiceProcess.start('ingestor', port, { ...env, INGEST_PORT: String(port) });
  }

  /** SIGKILLs the ingestor (no graceful drain) and starts a new one on the same database and queues. */
  async crashIngestor(): Promise<void> {
    await this.ingestor.kill('SIGKILL');
    this.ingestor = await Services.startIngestor(Services.env(this.database.url, this.queuePrefix));
  }

  get apiBaseUrl(): string {
    return this.api.baseUrl;
  }

  get ingestBaseUrl(): string {
    return this.ingestor.baseUrl;
  }

  get databaseUrl(): string {
    return this.database.url;
  }

  async stop(): Promise<void> {
    await Promise.all([this.ingestor.stop(), this.api.stop()]);
    await deleteRedisKeys(process.env.REDIS_URL!, this.queuePrefix);
    await this.database.drop();
  }

  /** Any path of the API host (`/healthz`, `/docs`, a list's `url`). */
  raw(path: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const { auth, headers, ...rest } = options;
    return httpCall(`${this.api.baseUrl}${path}`, {
      ...rest,
      headers: { ...(auth !== undefined ? { authorization: auth } : {}), ...headers },
      localAddress: rest.localAddress ?? this.localAddress,
    });
  }

  /** A read API path relative to `/api/v1`, or an absolute `/api/v1/…` path (a list's `url`). */
  get(
    path: string,
    auth: string | undefined,
    options: Omit<RequestOptions, 'auth'> = {},
  ): Promise<HttpResponse> {
    const full = path.startsWith('/api/v1') ? path : `/api/v1${path}`;
    return this.raw(full, { ...options, auth });
  }

  /** GET that must answer 200; returns the parsed body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async read(path: string, auth: string): Promise<any> {
    const res = await this.get(path, auth);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    return res.body;
  }

  /** POST /ingest/v1/graphs/{graphKey}/events with a raw body. */
  ingestRaw(
    graphKey: string,
    body: string,
    auth: string | undefined,
    headers: Record<string, string> = {},
  ): Promise<HttpResponse> {
    return httpCall(
      `${this.ingestor.baseUrl}/ingest/v1/graphs/${encodeURIComponent(graphKey)}/events`,
      {
        method: 'POST',
        body,
        headers: { ...(auth !== undefined ? { authorization: auth } : {}), ...headers },
        localAddress: this.localAddress,
      },
    );
  }

  ingest(graphKey: string, events: object[], auth: string): Promise<HttpResponse> {
    return this.ingestRaw(graphKey, JSON.stringify({ events }), auth);
  }

  /**
   * Sends events in batches of at most 1,000 (each after the previous was answered), requires
   * 202 for each, then waits until the read API holds them all.
   */
  async load(key: IssuedKey, graphKey: string, events: object[]): Promise<void> {
    for (let i = 0; i < events.length; i += BATCH) {
      const res = await this.ingest(graphKey, events.slice(i, i + BATCH), key.auth);
      if (res.status !== 202) {
        throw new Error(
          `ingest ${graphKey}: ${res.status} ${res.text}\ningestor log:\n${this.ingestor.logs().slice(-4_000)}`,
        );
      }
      const accepted = (res.body as { accepted: number }).accepted;
      this.sentPerGraph.set(graphKey, (this.sentPerGraph.get(graphKey) ?? 0) + accepted);
    }
    await this.waitForEventCount(key.auth, graphKey, this.sentPerGraph.get(graphKey)!);
  }

  /** The graph's retention.event_count, or null while the key cannot read it (404). */
  async eventCount(auth: string, graphKey: string): Promise<number | null> {
    const res = await this.get(`/graphs/gph_${graphKey}`, auth);
    return res.status === 200 ? (res.body.retention.event_count as number) : null;
  }

  /** Waits until the graph's retention holds `count` events (graphs under 2,000 events). */
  async waitForEventCount(
    auth: string,
    graphKey: string,
    count: number,
    timeoutMs = 15_000,
  ): Promise<void> {
    await waitUntil(
      `gph_${graphKey} to hold ${count} events`,
      async () => (await this.eventCount(auth, graphKey)) === count,
      timeoutMs,
    );
  }

  createKey(account: string, restrictedTo?: string[]): Promise<IssuedKey> {
    return createKeyWithCli(this.database.url, account, restrictedTo);
  }

  revokeKey(id: string): Promise<void> {
    return revokeKeyWithCli(this.database.url, id);
  }

  cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
    return runCli(args, {
      DATABASE_URL: this.database.url,
      GRAPH_HISTORY_URL: this.ingestor.baseUrl,
      ...env,
    });
  }
}
