import 'reflect-metadata';
import { loadConfigOrExit } from '@graph-history/config';
import { assertRedisReachable, closeOnSignals, openMigratedDb, runMain } from '@graph-history/http';
import { createApiApp } from './api-app';

runMain('API', async () => {
  const config = loadConfigOrExit();
  // The API serves without Redis (rate limits fall back to the in-process insurance limiter).
  await assertRedisReachable(config).catch((err: Error) =>
    process.stderr.write(
      `${err.message} The API serves anyway, with per-process rate limits until Redis is back.\n`,
    ),
  );
  // Reads are short index walks: starting a parallel worker costs more than the work it would share,
  // and the cores are already busy with other requests. The pool's connections stay open: an idle
  // timeout arms a timer at every release and clears it at the next query.
  const db = await openMigratedDb(config, {
    options: '-c max_parallel_workers_per_gather=0',
    idleTimeoutMillis: 0,
    batchScope: config.READ_BATCH_SCOPE,
  });
  const app = await createApiApp({ config, db });
  await app.listen({ port: config.PORT, host: config.HOST });
  closeOnSignals(app, db);
});
