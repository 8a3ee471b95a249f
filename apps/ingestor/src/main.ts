import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfigOrExit } from '@graph-history/config';
import { resolveDatabaseUrl } from '@graph-history/db';
import { assertRedisReachable, closeOnSignals, openMigratedDb, runMain } from '@graph-history/http';
import { ApplyProcesses } from './apply/apply-processes';
import { createIngestorApp } from './create-ingestor-app';
import { ingestorDbOptions } from './ingestor-db-options';

runMain('ingestor', async () => {
  const config = loadConfigOrExit();
  try {
    await assertRedisReachable(config);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
  const db = await openMigratedDb(config, ingestorDbOptions(config, true));
  const app = await createIngestorApp({ config, db, runWorkers: true });
  await app.listen({ port: config.INGEST_PORT, host: config.HOST });
  new Logger('Ingestor').log(`listening on ${config.HOST}:${config.INGEST_PORT}`);
  const workers = new ApplyProcesses(
    config.APPLY_PROCESSES - 1,
    await resolveDatabaseUrl(config),
    config.QUEUE_PREFIX,
  );
  workers.start();
  closeOnSignals(app, db, () => workers.stop());
});
