import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, Db, migrateToLatest } from '@graph-history/db';
import { PostgresServer } from '../../apps/cli/src/fleet/postgres-server';
import { createKey } from '../ingestor/support/api-keys';
import { twoFreePorts, freePort } from './free-port';
import { RedisServer } from './redis-server';
import { ServiceProcess } from './service-process';
import { waitUntil } from './wait';

const DATABASE = 'graph_history';

/**
 * A Postgres and a redis-server of its own (on free 127.0.0.1 ports, so they can be restarted and
 * killed), with the built ingestor (with `applyProcesses`) and read API on them, for fault tests
 * and bench:faults. `auth` is a secret key of a fresh account.
 */
export class FaultStack {
  private constructor(
    private readonly dir: string,
    readonly postgres: PostgresServer,
    readonly redis: RedisServer,
    /** The test's own pool on the database (for checks). */
    readonly db: Db,
    readonly auth: string,
    readonly ingestor: ServiceProcess,
    readonly api: ServiceProcess,
  ) {}

  static async start(options: { applyProcesses: number }): Promise<FaultStack> {
    const dir = await mkdtemp(path.join(tmpdir(), 'graph-history-faults-'));
    await chmod(dir, 0o755); // the postgres system user reaches its data folder in it
    const postgres = new PostgresServer(dir, 'postgres', await freePort());
    const redis = await RedisServer.start();
    await postgres.init();
    await postgres.start();
    await postgres.runAs('psql', [
      '-h',
      '127.0.0.1',
      '-p',
      String(postgres.port),
      '-U',
      'postgres',
      '-c',
      `CREATE DATABASE ${DATABASE}`,
    ]);
    const url = postgres.url(DATABASE);
    const db = createDb(url, { max: 2, onConnectionLost: () => undefined });
    await migrateToLatest(db);
    const { auth } = await createKey(db, 'faults');
    const [ingestPort, apiPort] = await twoFreePorts();
    const env = {
      DATABASE_URL: url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: 'gh-faults',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
    };
    const [ingestor, api] = await Promise.all([
      ServiceProcess.start('ingestor', ingestPort, {
        ...env,
        INGEST_PORT: String(ingestPort),
        APPLY_PROCESSES: String(options.applyProcesses),
      }),
      ServiceProcess.start('api', apiPort, { ...env, PORT: String(apiPort) }),
    ]);
    return new FaultStack(dir, postgres, redis, db, auth, ingestor, api);
  }

  get apps(): ServiceProcess[] {
    return [this.ingestor, this.api];
  }

  /**
   * Ms from now until `app` serves again: its /readyz answers 200 and, for the API, a graph list
   * does too (a read through the pool, not only a health probe).
   */
  async timeToServing(app: ServiceProcess, timeoutMs = 30_000): Promise<number> {
    const started = Date.now();
    const ok = (url: string) =>
      fetch(url, {
        headers: { authorization: this.auth },
        signal: AbortSignal.timeout(2_000),
      }).then(
        (r) => r.status === 200,
        () => false,
      );
    await waitUntil(
      `${app.baseUrl} to serve`,
      async () => {
        if (!app.alive) throw new Error(`${app.baseUrl} exited:\n${app.logs()}`);
        return (
          (await ok(`${app.baseUrl}/readyz`)) &&
          (app !== this.api || (await ok(`${app.baseUrl}/api/v1/graphs?limit=1`)))
        );
      },
      timeoutMs,
    );
    return Date.now() - started;
  }

  async stop(): Promise<void> {
    await Promise.all(this.apps.map((a) => a.stop()));
    await this.db.destroy().catch(() => undefined);
    await this.postgres.stop();
    await this.redis.kill();
    await rm(this.dir, { recursive: true, force: true });
  }
}
