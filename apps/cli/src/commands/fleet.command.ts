import { Command } from 'commander';
import { CliError } from '../cli-error';
import { Fleet, startFleet } from '../fleet/fleet';
import { fleetBanner } from '../fleet/fleet-banner';
import { IngestClient } from '../ingest-client';
import { CliIo, cliConfig } from '../io';
import { LiveFeed } from '../start/live-feed';
import { assertPortsFree } from '../start/startup-checks';
import { integerIn } from './option-parsers';

export function registerFleetCommand(program: Command, io: CliIo): void {
  program
    .command('fleet')
    .description(
      'Run a local fleet: Postgres primary + streaming replica, a Redis Cluster of 3 masters + 3 replicas, ingestors and API replicas behind HAProxy (PORT, INGEST_PORT)',
    )
    .option('--apis <n>', 'API replicas', integerIn(1, 8), 3)
    .option('--ingestors <n>', 'ingestors', integerIn(1, 4), 2)
    .action(async (opts: { apis: number; ingestors: number }) => {
      const config = cliConfig(io, { ownService: true });
      await assertPortsFree('127.0.0.1', [
        { port: config.PORT, variable: 'PORT', what: 'HAProxy in front of the read API' },
        {
          port: config.INGEST_PORT,
          variable: 'INGEST_PORT',
          what: 'HAProxy in front of the ingestors',
        },
      ]);
      // Handlers stay until exit: a second Ctrl-C must not kill the CLI halfway through stopping.
      let onSignal: () => void = () => undefined;
      const stopSignal = new Promise<void>((resolve) => (onSignal = resolve));
      process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
      io.stdout.write('Starting the fleet (Postgres, Redis Cluster, apps, HAProxy)…\n');
      const env = { ...io.env };
      delete env.REDIS_URL;
      const starting = startFleet({
        apiPort: config.PORT,
        ingestPort: config.INGEST_PORT,
        apis: opts.apis,
        ingestors: opts.ingestors,
        env,
      });
      const fleet = await Promise.race([starting, stopSignal.then(() => null)]);
      if (!fleet) {
        // stopped while starting: let it finish (or fail, cleaning up), then stop it
        await starting.then(
          (f) => f.stop(),
          () => undefined,
        );
        return;
      }
      await runFleet(io, fleet, stopSignal);
    });
}

async function runFleet(io: CliIo, fleet: Fleet, stopSignal: Promise<void>): Promise<void> {
  const feed = new LiveFeed(new IngestClient({ url: fleet.ingestUrl, key: fleet.key }), (m) =>
    io.stderr.write(`${m}\n`),
  );
  try {
    feed.start();
    io.stdout.write(fleetBanner(fleet, feed.graphKey));
    const crashed = await Promise.race([
      stopSignal.then(() => null),
      ...fleet.processes().map((p) => p.exited.then(() => p)),
    ]);
    if (crashed)
      throw new CliError(
        `The ${crashed.name} stopped unexpectedly. Last lines of ${crashed.logFile}:\n${crashed.lastLogLines()}`,
      );
    io.stdout.write('Stopping the fleet…\n');
  } finally {
    await feed.stop();
    await fleet.stop();
  }
  io.stdout.write('The fleet stopped.\n');
}
