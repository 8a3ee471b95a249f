import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfigOrExit } from '@graph-history/config';
import {
  createDb,
  migrateToLatest,
  resolveDatabaseUrl,
  stopEmbeddedPostgres,
} from '@graph-history/db';
import { assertRedisReachable } from '@graph-history/http';
import { createIngestorApp } from './create-ingestor-app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  try {
    await assertRedisReachable(config.REDIS_URL);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
  const db = createDb(await resolveDatabaseUrl(config), { max: 20 });
  await migrateToLatest(db);
  const app = await createIngestorApp({ config, db, runWorkers: true });
  await app.listen({ port: config.INGEST_PORT, host: config.HOST });
  new Logger('Ingestor').log(`listening on ${config.HOST}:${config.INGEST_PORT}`);

  let stopping = false;
  const shutdown = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    // Stop accepting, drain in-flight requests, finish the active jobs, then close connections.
    await app.close();
    await db.destroy();
    await stopEmbeddedPostgres();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((err: unknown) => {
  process.stderr.write(
    `ingestor failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
