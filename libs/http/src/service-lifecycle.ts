import type { INestApplication } from '@nestjs/common';
import type { Config } from '@graph-history/config';
import {
  createDb,
  Db,
  DbOptions,
  PooledDb,
  isConnectionError,
  migrateToLatest,
  resolveDatabaseUrl,
  stopEmbeddedPostgres,
} from '@graph-history/db';

/** The service's database (the embedded one when DATABASE_URL is unset), migrated to the latest. */
export async function openMigratedDb(config: Config, options: DbOptions = {}): Promise<PooledDb> {
  const db = createDb(await resolveDatabaseUrl(config), options);
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy().catch(() => undefined);
    throw err;
  }
  return db;
}

/**
 * openMigratedDb, retried every second while Postgres is unreachable (said once): for a process
 * started while it is away (an ingestor's apply worker respawned during an outage).
 */
export async function openMigratedDbOnceReachable(
  config: Config,
  options: DbOptions = {},
): Promise<PooledDb> {
  for (let waiting = false; ; waiting = true) {
    try {
      return await openMigratedDb(config, options);
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      if (!waiting)
        process.stderr.write(`postgres unreachable (${(err as Error).message}); waiting for it\n`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/**
 * On SIGTERM or SIGINT: stop accepting, drain in-flight work (Nest's close, and `alsoStop`, e.g.
 * child processes), then release the database and exit 0.
 */
export function closeOnSignals(
  app: INestApplication,
  db: Db,
  alsoStop: () => Promise<void> = async () => undefined,
): void {
  let stopping = false;
  const shutdown = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await Promise.all([app.close(), alsoStop()]);
    await db.destroy();
    await stopEmbeddedPostgres();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

/** Runs a service's main; a start-up failure prints one line and exits 1. */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
    const fix = inUse
      ? ': stop what listens there, or set PORT (read API) or INGEST_PORT (ingestor) to a free port'
      : '';
    process.stderr.write(
      `${name} failed to start: ${err instanceof Error ? err.message : String(err)}${fix}\n`,
    );
    process.exit(1);
  });
}
