import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfigOrExit } from '@graph-history/config';
import { assertRedisReachable, closeOnSignals, openMigratedDb, runMain } from '@graph-history/http';
import { createIngestorApp } from './create-ingestor-app';

runMain('ingestor', async () => {
  const config = loadConfigOrExit();
  try {
    await assertRedisReachable(config);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
  const db = await openMigratedDb(config, { max: 20 });
  const app = await createIngestorApp({ config, db, runWorkers: true });
  await app.listen({ port: config.INGEST_PORT, host: config.HOST });
  new Logger('Ingestor').log(`listening on ${config.HOST}:${config.INGEST_PORT}`);
  closeOnSignals(app, db);
});
