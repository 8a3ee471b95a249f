import { Command, CommanderError } from 'commander';
import { CliError } from './cli-error';
import { registerAccountsCommand } from './commands/accounts.command';
import { registerFleetCommand } from './commands/fleet.command';
import { registerGraphsCommand } from './commands/graphs.command';
import { registerIngestCommand } from './commands/ingest.command';
import { registerKeysCommand } from './commands/keys.command';
import { registerMigrateCommand } from './commands/migrate.command';
import { registerNoticesCommand } from './commands/notices.command';
import { registerSimulateCommand } from './commands/simulate.command';
import { registerStalledCommand } from './commands/stalled.command';
import { registerStartCommand } from './commands/start.command';
import { registerTailCommand } from './commands/tail.command';
import { registerWebhooksCommand } from './commands/webhooks.command';
import { CliIo } from './io';
import { registerHooksCommand } from './hooks/hooks.command';
import { registerWatchCommand } from './watch/watch.command';

export function createProgram(io: CliIo): Command {
  const program = new Command('graph-history')
    .description(
      'Live shares of AI-agent activity: keys, ingest, simulation, reading, and the one-machine server',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .showHelpAfterError('(run with --help for usage)');
  registerMigrateCommand(program, io);
  registerKeysCommand(program, io);
  registerAccountsCommand(program, io);
  registerWebhooksCommand(program, io);
  registerIngestCommand(program, io);
  registerSimulateCommand(program, io);
  registerStartCommand(program, io);
  registerStalledCommand(program, io);
  registerFleetCommand(program, io);
  registerWatchCommand(program, io);
  registerGraphsCommand(program, io);
  registerTailCommand(program, io);
  registerNoticesCommand(program, io);
  registerHooksCommand(program, io);
  return program;
}

/** Runs one command line and returns the exit code; errors become one line on stderr. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  try {
    await createProgram(io).parseAsync([...args], { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode; // commander already printed it
    if (err instanceof CliError) {
      io.stderr.write(`error: ${err.message}\n`);
      return err.exitCode;
    }
    io.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
