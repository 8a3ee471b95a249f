import { Command } from 'commander';
import { ApiKeyRow } from '@graph-history/db';
import { graphPublicId } from '@graph-history/domain';
import { withDatabase } from '../database';
import { CliIo, cliConfig, jsonLines } from '../io';
import { textTable } from '../text-table';
import { KeyAdminService } from '../keys/key-admin.service';

const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

export function registerKeysCommand(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('Create, list and revoke API keys');
  const service = <T>(fn: (s: KeyAdminService) => Promise<T>) =>
    withDatabase(cliConfig(io), (db) => fn(new KeyAdminService(db)));

  keys
    .command('create')
    .description('Create a key (and the account when it is new); the clear key is printed once')
    .requiredOption('--account <name>', 'account the key belongs to')
    .option(
      '--restricted <graph_ids>',
      'make a restricted key that reads only these graphs (gph_a,gph_b)',
      splitList,
    )
    .option('--json', 'print one JSON object { key, id, account }')
    .action(async (opts: { account: string; restricted?: string[]; json?: boolean }) => {
      const created = await service((s) => s.create(opts.account, opts.restricted ?? null));
      if (opts.json) {
        io.stdout.write(
          `${JSON.stringify({ key: created.key, id: created.id, account: created.account })}\n`,
        );
        return;
      }
      const scope = created.graphKeys
        ? `reads only ${created.graphKeys.map(graphPublicId).join(', ')}`
        : 'reads every graph of the account';
      io.stdout.write(
        `Created ${created.kind} key ${created.id} for account ${JSON.stringify(created.account)} (${scope}):\n\n` +
          `  ${created.key}\n\nStore it now: it is shown only once.\n`,
      );
    });

  keys
    .command('list')
    .description("List an account's keys (masked)")
    .requiredOption('--account <name>', 'account whose keys to list')
    .option('--json', 'print one JSON key per line')
    .action(async (opts: { account: string; json?: boolean }) => {
      const rows = await service((s) => s.list(opts.account));
      io.stdout.write(opts.json ? jsonLines(rows.map(toJson)) : formatTable(rows));
    });

  keys
    .command('revoke')
    .description('Revoke a key; it stops working within 5 seconds')
    .argument('<id>', 'key id (key_…), as shown by keys list')
    .action(async (id: string) => {
      const outcome = await service((s) => s.revoke(id));
      io.stdout.write(
        outcome.revoked
          ? `Revoked ${id} (${outcome.key.masked}); it stops working within 5 seconds.\n`
          : `${id} (${outcome.key.masked}) was already revoked at ${iso(outcome.key.revoked)}.\n`,
      );
    });
}

const toJson = (k: ApiKeyRow) => ({
  id: k.keyId,
  kind: k.kind,
  masked_key: k.masked,
  graph_ids: k.graphKeys?.map(graphPublicId) ?? null,
  created: k.created,
  revoked: k.revoked,
});

function formatTable(rows: ApiKeyRow[]): string {
  if (rows.length === 0) return 'No keys.\n';
  return textTable([
    ['ID', 'KIND', 'KEY', 'GRAPHS', 'CREATED', 'REVOKED'],
    ...rows.map((k) => [
      k.keyId,
      k.kind,
      k.masked,
      k.graphKeys ? k.graphKeys.map(graphPublicId).join(',') : 'all',
      iso(k.created),
      iso(k.revoked),
    ]),
  ]);
}
