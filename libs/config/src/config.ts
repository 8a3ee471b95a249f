import { z } from 'zod';
import { settingMustBe } from './config-issue';
import { deploymentPrefix } from './deployment-prefix';
import { duration, durationList } from './durations';
import { trustProxy } from './trust-proxy';

const port = z.coerce.number().int().min(1).max(65535);
const positiveInt = z.coerce.number().int().positive();
const boundedInt = (max: number) => positiveInt.max(max);

const schema = z.object({
  DATABASE_URL: z
    .string()
    .url()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// URL')
    .optional(),
  /** Streaming replicas the API may read from: postgres:// URLs, comma-separated. */
  DATABASE_REPLICA_URLS: z
    .string()
    .transform((v) => v.split(',').map((u) => u.trim()))
    .refine(
      (urls) => urls.every((u) => /^postgres(ql)?:\/\/[^\s]+$/.test(u)),
      'must be postgres:// URLs separated by commas',
    )
    .optional(),
  /** How long a read `as_of` an event a replica has not replayed yet waits for it before the primary. */
  REPLICA_MAX_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(250),
  REDIS_URL: z
    .string()
    .url()
    .refine((v) => /^rediss?:\/\//.test(v), 'must be a redis:// URL')
    .default('redis://127.0.0.1:6379'),
  /** A Redis Cluster instead of REDIS_URL: `host:port` of some of its masters, comma-separated. */
  REDIS_CLUSTER_NODES: z
    .string()
    .transform((v) => v.split(',').map((n) => n.trim()))
    .refine(
      (nodes) =>
        nodes.every((n) => /^[A-Za-z0-9.-]+:\d{1,5}$/.test(n) && Number(n.split(':')[1]) <= 65535),
      'must be host:port pairs separated by commas',
    )
    .transform((nodes) =>
      nodes.map((n) => ({ host: n.split(':')[0]!, port: Number(n.split(':')[1]) })),
    )
    .optional(),
  PORT: port.default(3000),
  /** Address the read API and the ingestor listen on; `0.0.0.0` for every interface. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Bearer token that `/metrics` of both apps asks for; unset, `/metrics` is off (404). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  INGEST_PORT: port.default(3001),
  STALE_AFTER_MS: positiveInt.default(300_000),
  /** Ingestor: a JSON price table (libs/domain/src/usage/model-prices.json's shape) to estimate usage costs with instead of the repository's. */
  MODEL_PRICES_FILE: z.string().min(1).optional(),
  /**
   * Read API: which node and graph reads in flight together share one statement: any
   * (`database`), or only reads of one graph (`graph`), so that every statement stays on one shard
   * of a database distributed by graph (Citus).
   */
  READ_BATCH_SCOPE: z.enum(['database', 'graph']).default('database'),
  RATE_LIMIT_PER_SECOND: positiveInt.default(100),
  RATE_LIMIT_BURST: positiveInt.default(200),
  /** Tokens a second shared by all keys of an account; default twice RATE_LIMIT_PER_SECOND. */
  ACCOUNT_RATE_LIMIT: positiveInt.optional(),
  /** An account's bucket size; default twice RATE_LIMIT_BURST. */
  ACCOUNT_RATE_BURST: positiveInt.optional(),
  /**
   * Read API: tokens a second and bucket size of each viewer session (the viewer page's own
   * requests draw from it instead of the key's bucket); all viewer sessions of an account share a
   * bucket twice as large instead of the account's.
   */
  VIEWER_RATE_LIMIT: positiveInt.default(200),
  VIEWER_RATE_BURST: positiveInt.default(4_000),
  /** Expensive requests (expansions, pages over 100) an account may run at once per API process. */
  ACCOUNT_CONCURRENCY: positiveInt.default(1),
  /**
   * Read API: bytes of stored JSON one answer's lists may hold (more when their first item alone
   * is larger); a key or account may read only what the tokens it holds pay for.
   */
  PAGE_MAX_BYTES: positiveInt.default(4 * 1024 * 1024),
  /**
   * Ingestor: events a second one account may send, shared by all its keys and every ingestor
   * (a Redis token bucket), and the bucket's size. Bursts below 1,000 (a full batch) take the
   * whole bucket for a full batch.
   */
  INGEST_EVENTS_PER_SECOND: positiveInt.default(1_000),
  INGEST_EVENTS_BURST: positiveInt.default(10_000),
  /** Ingestor: request body bytes a second one account may send, and the bucket's size. */
  INGEST_BYTES_PER_SECOND: positiveInt.default(8 * 1024 * 1024),
  INGEST_BYTES_BURST: positiveInt.default(32 * 1024 * 1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_URL: z.string().url().optional(),
  /** Which proxies may tell the client's address in X-Forwarded-For (see trust-proxy.ts). */
  TRUST_PROXY: trustProxy,
  DATA_DIR: z.string().min(1).default('.data'),
  /** Both apps: how long a client has to send the request line and headers (408 after). */
  HEADERS_TIMEOUT_MS: boundedInt(600_000).default(10_000),
  /** Both apps: how long a client has to send the whole request, headers and body (408 after). */
  REQUEST_TIMEOUT_MS: boundedInt(600_000).default(30_000),
  /** Both apps: how long an idle keep-alive connection stays open between requests. */
  KEEP_ALIVE_TIMEOUT_MS: boundedInt(600_000).default(5_000),
  /** Both apps: open connections per process (lowered to fit the open-file limit). */
  MAX_CONNECTIONS: boundedInt(1_000_000).default(10_000),
  /**
   * Both apps: connections one client address may hold open (trusted proxies exempt); behind
   * TRUST_PROXY, requests one forwarded client address may have in flight.
   */
  MAX_CLIENT_CONNECTIONS: boundedInt(1_000_000).default(256),
  /**
   * Key prefix of the ingestor's BullMQ queues and of rate-limit keys in Redis (lets deployments or
   * tests share a server); unset, one of the deployment's own (deployment-prefix.ts).
   */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 of A-Z a-z 0-9 _ . -')
    .optional(),
  /** Ingestor: stored events read, reduced and committed by one apply statement. */
  APPLY_BATCH_SIZE: boundedInt(10_000).default(500),
  /**
   * Ingestor: graphs one process applies at once. A small graph's apply is mostly waiting on its
   * round trips, so more graphs at once than cores keeps store-to-readable short under load.
   */
  APPLY_CONCURRENCY: boundedInt(64).default(16),
  /**
   * Ingestor: apply processes, each taking one shard of the graphs: the HTTP process and the
   * APPLY_PROCESSES - 1 worker-only processes it starts. The same in every ingestor of a deployment.
   */
  APPLY_PROCESSES: boundedInt(16).default(1),
  /** Ingestor: reducer states kept in memory between apply runs (graphs, least recently used out). */
  APPLY_STATE_CACHE_GRAPHS: boundedInt(100_000).default(256),
  /** Ingestor: seqs deleted per trim transaction. */
  TRIM_CHUNK_SEQS: boundedInt(100_000).default(1_000),
  /**
   * Ingestor: idempotency keys remembered per graph, counted back from the oldest retained event
   * (at least the 2,000 a graph can retain); a re-sent event older than that is stored again.
   */
  IDEMPOTENCY_KEYS_KEPT: z.coerce.number().int().min(2_000).max(100_000_000).default(100_000),
  /** Ingestor: graphs an account may hold unless its own quota says otherwise (`accounts set-quota`). */
  ACCOUNT_MAX_GRAPHS: positiveInt.default(1_000),
  /**
   * Ingestor: bytes of stored events (inbox and retained, each as its JSON) an account may hold
   * unless its own quota says otherwise; default 2 GiB.
   */
  ACCOUNT_MAX_BYTES: positiveInt.max(Number.MAX_SAFE_INTEGER).default(2 * 1024 ** 3),
  /**
   * Ingestor: notices kept per account, newest first; older ones are deleted by the trim job that
   * follows each apply that made notices (docs/api-reference.md, "Notices").
   */
  NOTICES_KEPT: boundedInt(1_000_000).default(1_000),
  /** Ingestor: graphs with pending work the sweeper enqueues per pass. */
  SWEEP_LIMIT: boundedInt(1_000_000).default(10_000),
  EMBEDDED_POSTGRES_PORT: port.default(5433),
  /** Port of the redis-server `start` runs itself when REDIS_URL is unset and 6379 is silent. */
  EMBEDDED_REDIS_PORT: port.default(6380),
  GRAPH_HISTORY_URL: z.string().url().default('http://127.0.0.1:3001'),
  /** Read API base URL for the CLI's read commands (`graphs`, `tail`). */
  GRAPH_HISTORY_API_URL: z.string().url().default('http://127.0.0.1:3000'),
  GRAPH_HISTORY_KEY: z.string().min(1).optional(),
  /** How long a viewer sign-in lasts (ms); the session cookie expires with it. */
  VIEWER_SESSION_TTL_MS: positiveInt.default(43_200_000),
  /** API: an event stream's heartbeat (a `:` comment line) after this long without a message. */
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  /** API: how often event streams read Postgres for new events while Redis pub/sub is away. */
  STREAM_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** API: how often a stream's key is looked up again (a revoked key's streams end by then). */
  STREAM_KEY_CHECK_MS: z.coerce.number().int().min(100).max(5_000).default(2_000),
  /** API: open streams (events and notices) of one account in one API process; more get 429. */
  STREAM_MAX_PER_ACCOUNT: positiveInt.default(1_000),
  /** API: open streams (events and notices) of one API process, all accounts; more get 429. */
  STREAM_MAX_PER_PROCESS: positiveInt.default(20_000),
  /**
   * Ingestor: how long after each failed attempt a webhook delivery is tried again, one duration
   * per retry; after the last, the delivery has failed. Default: 13 retries over about 3 days.
   */
  WEBHOOK_RETRY_SCHEDULE: durationList(50).default('10s,1m,5m,30m,1h,2h,4h,8h,12h,12h,12h,12h,12h'),
  /** Ingestor: how long a webhook receiver has to answer (connect, send, first byte of status). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * Ingestor: an endpoint whose attempts all failed for this long (no 2xx since the first failure)
   * is disabled; `webhooks enable` turns it back on.
   */
  WEBHOOK_DISABLE_AFTER: duration().default('3d'),
  /** CLI: how long the previous secret still signs deliveries after `webhooks rotate-secret`. */
  WEBHOOK_SECRET_OVERLAP: duration(0).default('24h'),
  /** Ingestor: how long delivered and failed webhook deliveries (and their attempts) are kept. */
  WEBHOOK_HISTORY: duration().default('30d'),
  /** Ingestor: webhook deliveries one process has in flight at once. */
  WEBHOOK_CONCURRENCY: boundedInt(1_000).default(32),
  /**
   * CLI and ingestor: `true` lets webhook URLs reach private, loopback and link-local addresses
   * (tests, a receiver on the same host); otherwise they are refused.
   */
  WEBHOOK_ALLOW_PRIVATE_URLS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

export type Config = Omit<z.infer<typeof schema>, 'QUEUE_PREFIX'> & { QUEUE_PREFIX: string };

export class ConfigError extends Error {}

/** Reads and validates the environment once; a bad value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    const mustBe = settingMustBe(schema.shape[name as keyof typeof schema.shape], issue);
    throw new ConfigError(
      `Invalid configuration: ${name}=${JSON.stringify(env[name] ?? '')}: ${mustBe}`,
    );
  }
  return {
    ...parsed.data,
    QUEUE_PREFIX: parsed.data.QUEUE_PREFIX ?? deploymentPrefix(parsed.data),
  };
}

/** Like loadConfig, but prints the one-line reason and exits: for process entry points. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
}

/** Where clients reach the read API: PUBLIC_URL, else its local port. For viewer and doc links. */
export const publicBaseUrl = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string =>
  (config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, '');
