import 'reflect-metadata';
import { loadConfigOrExit } from '@graph-history/config';
import { closeOnSignals, openMigratedDb, runMain } from '@graph-history/http';
import { createIngestorApp } from './create-ingestor-app';

/**
 * A worker-only ingestor process (started by the HTTP one when APPLY_PROCESSES > 1): apply and
 * trim workers and the sweeper, no listening socket. Stops with its parent.
 */
runMain('ingestor apply worker', async () => {
  const config = loadConfigOrExit();
  const db = await openMigratedDb(config, { max: 10 });
  const app = await createIngestorApp({ config, db, runWorkers: true });
  closeOnSignals(app, db);
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
});
