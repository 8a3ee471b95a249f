import 'reflect-metadata';
import { loadConfigOrExit } from '@graph-history/config';
import { closeOnSignals, openMigratedDbOnceReachable, runMain } from '@graph-history/http';
import { createIngestorApp } from './create-ingestor-app';
import { ingestorDbOptions } from './ingestor-db-options';

/**
 * A worker-only ingestor process (started by the HTTP one when APPLY_PROCESSES > 1) for the apply
 * shard given as its argument: apply and trim workers and the sweeper, no listening socket. Stops
 * with its parent. Started (again) while Postgres is away, it waits for it.
 */
runMain('ingestor apply worker', async () => {
  const config = loadConfigOrExit();
  const applyShard = Number(process.argv[2]);
  if (!Number.isInteger(applyShard) || applyShard < 1 || applyShard >= config.APPLY_PROCESSES)
    throw new Error(`apply shard must be 1 to APPLY_PROCESSES - 1, got ${process.argv[2]}`);
  const db = await openMigratedDbOnceReachable(config, ingestorDbOptions(config, false));
  const app = await createIngestorApp({ config, db, runWorkers: true, applyShard });
  closeOnSignals(app, db);
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
});
