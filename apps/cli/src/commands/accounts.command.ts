import { Command } from 'commander';
import { QuotaOverrides } from '@graph-history/db';
import { CliError } from '../cli-error';
import { withDatabase } from '../database';
import { CliIo, cliConfig } from '../io';
import { textTable } from '../text-table';
import {
  AccountQuotaReport,
  AccountQuotasService,
  QuotaLine,
} from '../accounts/account-quotas.service';
import { BYTE_UNITS, quotaValue } from './option-parsers';

type QuotaOption = number | 'default' | undefined;

interface SetQuotaOptions {
  account: string;
  graphs?: QuotaOption;
  bytes?: QuotaOption;
  eventsPerSecond?: QuotaOption;
  json?: boolean;
}

/** An option's change: `default` sets null (back to the setting); absent changes nothing. */
const change = (value: QuotaOption) => (value === 'default' ? null : value);

export function registerAccountsCommand(program: Command, io: CliIo): void {
  const accounts = program
    .command('accounts')
    .description("Accounts' quotas: what each holds against its limits, and raising them");
  const service = <T>(fn: (s: AccountQuotasService) => Promise<T>) => {
    const config = cliConfig(io);
    return withDatabase(config, (db) => fn(new AccountQuotasService(db, config)));
  };
  const print = (report: AccountQuotaReport, json?: boolean) =>
    io.stdout.write(json ? `${JSON.stringify(toJson(report))}\n` : formatReport(report));

  accounts
    .command('show')
    .description("An account's graphs and bytes held against its quotas")
    .requiredOption('--account <name>', 'the account')
    .option('--json', 'print one JSON object')
    .action(async (opts: { account: string; json?: boolean }) => {
      print(await service((s) => s.show(opts.account)), opts.json);
    });

  accounts
    .command('set-quota')
    .description(
      'Set an account\'s quotas ("default" returns one to the deployment\'s setting); the ingestor applies them within 5 seconds',
    )
    .requiredOption('--account <name>', 'the account')
    .option('--graphs <n>', 'graphs the account may hold', quotaValue(1_000_000_000))
    .option(
      '--bytes <n>',
      'bytes of stored events it may hold (e.g. 5368709120 or 5GiB)',
      quotaValue(Number.MAX_SAFE_INTEGER, BYTE_UNITS),
    )
    .option(
      '--events-per-second <n>',
      'events per second it may ingest (the ingest limiter)',
      quotaValue(1_000_000_000),
    )
    .option('--json', 'print the account as accounts show --json does')
    .action(async (opts: SetQuotaOptions) => {
      const changes: Partial<QuotaOverrides> = {
        ...(opts.graphs !== undefined && { maxGraphs: change(opts.graphs) }),
        ...(opts.bytes !== undefined && { maxBytes: change(opts.bytes) }),
        ...(opts.eventsPerSecond !== undefined && {
          eventsPerSecond: change(opts.eventsPerSecond),
        }),
      };
      if (Object.keys(changes).length === 0)
        throw new CliError('set-quota needs --graphs, --bytes or --events-per-second.');
      print(await service((s) => s.setQuota(opts.account, changes)), opts.json);
    });
}

const line = (q: QuotaLine) => ({ used: q.used, limit: q.limit, source: q.source });

const toJson = (r: AccountQuotaReport) => ({
  account: r.account,
  graphs: line(r.graphs),
  bytes: line(r.bytes),
  events_per_second: r.eventsPerSecond,
});

const n = (v: number) => v.toLocaleString('en-US');
const percent = (q: QuotaLine) => `${Math.floor((q.used / q.limit) * 100)}%`;

function formatReport(r: AccountQuotaReport): string {
  return (
    `Account ${JSON.stringify(r.account)}\n` +
    textTable([
      ['QUOTA', 'USED', 'LIMIT', 'USE', 'SET BY'],
      ['graphs', n(r.graphs.used), n(r.graphs.limit), percent(r.graphs), r.graphs.source],
      ['bytes', n(r.bytes.used), n(r.bytes.limit), percent(r.bytes), r.bytes.source],
      [
        'events/s',
        '-',
        r.eventsPerSecond === null ? 'default' : n(r.eventsPerSecond),
        '-',
        r.eventsPerSecond === null ? 'default' : 'account',
      ],
    ])
  );
}
