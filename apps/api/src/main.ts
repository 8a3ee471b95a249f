import 'reflect-metadata';
import { loadConfigOrExit } from '@graph-history/config';
import {
  createDb,
  migrateToLatest,
  resolveDatabaseUrl,
  stopEmbeddedPostgres,
} from '@graph-history/db';
import { assertRedisReachable } from '@graph-history/http';
import { createApiApp } from './api-app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  // The API serves without Redis (rate limits fall back to the in-process insurance limiter).
  await assertRedisReachable(config.REDIS_URL).catch((err: Error) =>
    process.stderr.write(
      `${err.message} The API serves anyway, with per-process rate limits until Redis is back.\n`,
    ),
  );
  const db = createDb(await resolveDatabaseUrl(config));
  await migrateToLatest(db);
  const app = await createApiApp({ config, db });
  await app.listen({ port: config.PORT, host: config.HOST });

  let stopping = false;
  const shutdown = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
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
    `API failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
