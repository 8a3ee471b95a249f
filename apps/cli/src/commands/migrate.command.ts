import { Command } from 'commander';
import { migrateToLatest } from '@graph-history/db';
import { withDatabase } from '../database';
import { CliIo, cliConfig } from '../io';

export function registerMigrateCommand(program: Command, io: CliIo): void {
  program
    .command('migrate')
    .description('Apply pending database migrations (safe to run from several places at once)')
    .action(async () => {
      const result = await withDatabase(cliConfig(io), (db) => migrateToLatest(db));
      const applied = (result.results ?? [])
        .filter((r) => r.status === 'Success')
        .map((r) => r.migrationName);
      io.stdout.write(
        applied.length ? `Applied ${applied.join(', ')}.\n` : 'The database is up to date.\n',
      );
    });
}
