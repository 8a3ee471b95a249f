import { Command } from 'commander';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { API_NODE_FLAGS, Config, INGESTOR_NODE_FLAGS } from '@graph-history/config';
import {
  createDb,
  migrateToLatest,
  resolveDatabaseUrl,
  stopEmbeddedPostgres,
} from '@graph-history/db';
import { CliError } from '../cli-error';
import { databaseRefused } from '../database';
import { IngestClient } from '../ingest-client';
import { CliIo, cliConfig } from '../io';
import { appEntry } from '../paths';
import { AppProcess, waitUntilServing } from '../start/app-process';
import { demoAccess } from '../start/demo-account';
import { databaseIdentity, readDemoPosition } from '../start/demo-position';
import { LiveFeed } from '../start/live-feed';
import { localRedis } from '../start/local-redis';
import { removeServiceRecord, runningService, writeServiceRecord } from '../start/service-record';
import { startBanner } from '../start/start-banner';
import { assertDataDirWritable, assertPortsFree } from '../start/startup-checks';

export function registerStartCommand(program: Command, io: CliIo): void {
  program
    .command('start')
    .description(
      'Run the read API and the ingestor on this machine (embedded Postgres unless DATABASE_URL is set, a local redis-server unless REDIS_URL is set)',
    )
    .action(async () => {
      const config = cliConfig(io, { ownService: true });
      assertNotRunning(config.DATA_DIR);
      await assertDataDirWritable(config.DATA_DIR);
      await assertPortsFree(config.HOST, [
        { port: config.PORT, variable: 'PORT', what: 'the read API' },
        { port: config.INGEST_PORT, variable: 'INGEST_PORT', what: 'the ingestor' },
      ]);
      const redis = await localRedis({
        env: io.env,
        port: config.EMBEDDED_REDIS_PORT,
        dir: path.resolve(config.DATA_DIR, 'redis'),
      });
      try {
        const databaseUrl = await resolveDatabaseUrl(config).catch((err: Error) => {
          throw new CliError(err.message);
        });
        await serve(io, { ...config, REDIS_URL: redis.url }, databaseUrl, redis.startedHere);
      } finally {
        await stopEmbeddedPostgres();
        await redis.stop();
      }
      io.stdout.write('graph-history stopped.\n');
    });
}

async function serve(
  io: CliIo,
  config: Config,
  databaseUrl: string,
  ownRedis: boolean,
): Promise<void> {
  const db = createDb(databaseUrl, { max: 1 });
  const demo = await migrateToLatest(db)
    .then(() => demoAccess(db, path.resolve(config.DATA_DIR, 'demo-key')))
    .catch((err: unknown) => {
      throw databaseRefused(err, databaseUrl) ?? err;
    })
    .finally(() => db.destroy());

  const logDir = path.resolve(config.DATA_DIR, 'logs');
  await mkdir(logDir, { recursive: true });
  // QUEUE_PREFIX as this process has it (derived from DATA_DIR when unset), so the apps agree.
  const env = {
    ...io.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: config.REDIS_URL,
    QUEUE_PREFIX: config.QUEUE_PREFIX,
  };
  const apps = [
    new AppProcess('API', appEntry('api'), env, path.join(logDir, 'api.log'), API_NODE_FLAGS),
    new AppProcess(
      'ingestor',
      appEntry('ingestor'),
      env,
      path.join(logDir, 'ingestor.log'),
      INGESTOR_NODE_FLAGS,
    ),
  ];
  // Handlers stay until the process exits: a second Ctrl-C (or the one a parent like pnpm
  // forwards) must not kill it halfway through stopping, which would end it with a failure code.
  let onSignal: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (onSignal = resolve));
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  let feed: LiveFeed | null = null;
  try {
    const host = reachableHost(config.HOST);
    const apiUrl = `http://${host}:${config.PORT}`;
    const ingestUrl = `http://${host}:${config.INGEST_PORT}`;
    await waitUntilServing(apps[0]!, `${apiUrl}/healthz`);
    await waitUntilServing(apps[1]!, `${ingestUrl}/healthz`);
    await writeServiceRecord(config.DATA_DIR, {
      pid: process.pid,
      apiUrl,
      ingestUrl,
      databaseUrl,
      redisUrl: config.REDIS_URL,
      queuePrefix: config.QUEUE_PREFIX,
      started: Date.now(),
    });
    if (demo) {
      const client = new IngestClient({ url: ingestUrl, key: demo.key });
      const positionFile = path.resolve(config.DATA_DIR, 'demo-feed.json');
      // A new demo account starts a new story; an existing one continues its story from now (or,
      // without a position kept for this database, begins a new one now: never history again).
      const kept = demo.created ? null : await readDemoPosition(positionFile);
      feed = new LiveFeed(client, (message) => io.stderr.write(`${message}\n`), {
        positionFile,
        resume: kept?.database === databaseIdentity(databaseUrl) ? kept : null,
        backfill: demo.created,
        database: databaseIdentity(databaseUrl),
      });
      feed.start();
    }
    io.stdout.write(
      startBanner({
        apiUrl,
        ingestUrl,
        embedded: !config.DATABASE_URL,
        ownRedis,
        config,
        logDir,
        apps,
        demo,
        demoGraph: feed?.graphKey,
      }),
    );
    const crashed = await Promise.race([
      stopSignal.then(() => null),
      ...apps.map((a) => a.exited.then(() => a)),
    ]);
    if (crashed) {
      throw new CliError(
        `The ${crashed.name} stopped unexpectedly. Last lines of ${crashed.logFile}:\n${crashed.lastLogLines()}`,
      );
    }
    io.stdout.write('Stopping graph-history…\n');
  } finally {
    removeServiceRecord(config.DATA_DIR);
    await feed?.stop();
    await Promise.all(apps.map((a) => a.stop()));
  }
}

/** One `start` per DATA_DIR: a second would fight the first over its Postgres and ports. */
function assertNotRunning(dataDir: string): void {
  const running = runningService(dataDir);
  if (running) {
    throw new CliError(
      `graph-history already runs from DATA_DIR ${path.resolve(dataDir)} (pid ${running.pid}, read API at ${running.apiUrl}): use that one, stop it first, or set DATA_DIR to another folder.`,
    );
  }
}

/** How this machine reaches apps listening on HOST (any-interface addresses via loopback). */
function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
