import { Command } from 'commander';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Config } from '@graph-history/config';
import {
  createDb,
  migrateToLatest,
  resolveDatabaseUrl,
  stopEmbeddedPostgres,
} from '@graph-history/db';
import { CliError } from '../cli-error';
import { IngestClient } from '../ingest-client';
import { CliIo, cliConfig } from '../io';
import { appEntry } from '../paths';
import { AppProcess, waitUntilServing } from '../start/app-process';
import { createDemoAccountIfEmpty } from '../start/demo-account';
import { LiveFeed } from '../start/live-feed';
import { startBanner } from '../start/start-banner';

export function registerStartCommand(program: Command, io: CliIo): void {
  program
    .command('start')
    .description(
      'Run the read API and the ingestor on this machine (embedded Postgres unless DATABASE_URL is set)',
    )
    .action(async () => {
      const config = cliConfig(io);
      // Loaded here only: it brings NestJS along, which the other commands do not need.
      const { assertRedisReachable } = await import('@graph-history/http');
      await assertRedisReachable(config.REDIS_URL).catch((err: Error) => {
        throw new CliError(err.message);
      });
      const databaseUrl = await resolveDatabaseUrl(config).catch((err: Error) => {
        throw new CliError(err.message);
      });
      try {
        await serve(io, config, databaseUrl);
      } finally {
        await stopEmbeddedPostgres();
      }
    });
}

async function serve(io: CliIo, config: Config, databaseUrl: string): Promise<void> {
  const db = createDb(databaseUrl, { max: 1 });
  const demo = await migrateToLatest(db)
    .then(() => createDemoAccountIfEmpty(db))
    .finally(() => db.destroy());

  const logDir = path.resolve(config.DATA_DIR, 'logs');
  await mkdir(logDir, { recursive: true });
  const env = { ...io.env, DATABASE_URL: databaseUrl };
  const apps = [
    new AppProcess('API', appEntry('api'), env, path.join(logDir, 'api.log')),
    new AppProcess('ingestor', appEntry('ingestor'), env, path.join(logDir, 'ingestor.log')),
  ];
  let onSignal: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (onSignal = resolve));
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  let feed: LiveFeed | null = null;
  try {
    const apiUrl = `http://127.0.0.1:${config.PORT}`;
    const ingestUrl = `http://127.0.0.1:${config.INGEST_PORT}`;
    await waitUntilServing(apps[0]!, `${apiUrl}/api/v1/graphs`);
    await waitUntilServing(apps[1]!, `${ingestUrl}/healthz`);
    if (demo) {
      const client = new IngestClient({ url: ingestUrl, key: demo.key });
      feed = new LiveFeed(client, (message) => io.stderr.write(`${message}\n`));
      feed.start();
    }
    io.stdout.write(
      startBanner({
        apiUrl,
        ingestUrl,
        embedded: !config.DATABASE_URL,
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
    io.stdout.write('Stopping…\n');
  } finally {
    process.removeListener('SIGINT', onSignal).removeListener('SIGTERM', onSignal);
    await feed?.stop();
    await Promise.all(apps.map((a) => a.stop()));
  }
}
