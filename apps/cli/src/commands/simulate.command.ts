import { Command } from 'commander';
import { isGraphKey } from '@graph-history/domain';
import { DEFAULT_START_TIME, simulationStream } from '@graph-history/simulator';
import { CliError } from '../cli-error';
import { CliIo, write } from '../io';
import { integerIn } from './option-parsers';

interface SimulateOptions {
  graphs: number;
  events: number;
  seed: string;
  start: number;
  prefix: string;
}

export function registerSimulateCommand(program: Command, io: CliIo): void {
  program
    .command('simulate')
    .description(
      'Print simulated agent activity as {"graph": KEY, "event": WatchEvent} lines, ready for `ingest`',
    )
    .requiredOption('--graphs <n>', 'number of graphs', integerIn(1, 10_000))
    .requiredOption('--events <m>', 'events per graph', integerIn(1, 10_000_000))
    .option('--seed <s>', 'seed: the same seed and options always print the same lines', '1')
    .option(
      '--start <ms>',
      'time of the first events, in Unix ms',
      integerIn(0, 8.64e15),
      DEFAULT_START_TIME,
    )
    .option('--prefix <p>', 'graph keys are <prefix>-1 … <prefix>-N', 'sim')
    .action(async (opts: SimulateOptions) => {
      if (!isGraphKey(`${opts.prefix}-${opts.graphs}`)) {
        throw new CliError(
          `--prefix: ${JSON.stringify(opts.prefix)} does not make valid graph keys (A-Z a-z 0-9 _ -, 64 at most).`,
        );
      }
      const stream = simulationStream({
        graphs: opts.graphs,
        eventsPerGraph: opts.events,
        seed: opts.seed,
        startTime: opts.start,
        graphKeyPrefix: opts.prefix,
      });
      let chunk = '';
      for (const line of stream) {
        chunk += `${JSON.stringify(line)}\n`;
        if (chunk.length > 64 * 1024) {
          await write(io.stdout, chunk);
          chunk = '';
        }
      }
      await write(io.stdout, chunk);
    });
}
