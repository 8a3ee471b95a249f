import { Command } from 'commander';
import { AttemptRow, WebhookEndpointRow } from '@graph-history/db';
import { graphPublicId, maskWebhookSecret } from '@graph-history/domain';
import { withDatabase } from '../database';
import { CliIo, cliConfig, jsonLines } from '../io';
import { textTable } from '../text-table';
import { WebhookAdminService } from '../webhooks/webhook-admin.service';
import { integerIn } from './option-parsers';

const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const collect = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...splitList(value),
];

const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

export function registerWebhooksCommand(program: Command, io: CliIo): void {
  const webhooks = program
    .command('webhooks')
    .description("An account's webhook endpoints: notices POSTed, signed, retried for days");
  const service = <T>(fn: (s: WebhookAdminService) => Promise<T>) => {
    const config = cliConfig(io);
    return withDatabase(config, (db) => fn(new WebhookAdminService(db, config)));
  };
  const out = (text: string): void => void io.stdout.write(text);

  webhooks
    .command('create')
    .description('Register an endpoint; its signing secret (whsec_…) is printed once')
    .requiredOption('--account <name>', 'account whose notices it receives')
    .requiredOption('--url <url>', 'http(s) URL notices are POSTed to (a public address)')
    .option('--types <types>', 'notice types it wants, comma-separated (default: all)', splitList)
    .option(
      '--graph <graph_id...>',
      'only notices of these graphs (repeat or comma-separate)',
      collect,
    )
    .option('--json', 'print one JSON object, secret included')
    .action(
      async (opts: {
        account: string;
        url: string;
        types?: string[];
        graph?: string[];
        json?: boolean;
      }) => {
        const e = await service((s) =>
          s.create(opts.account, {
            url: opts.url,
            types: opts.types ?? null,
            graphIds: opts.graph ?? null,
          }),
        );
        if (opts.json) return out(`${JSON.stringify({ ...toJson(e), secret: e.secret })}\n`);
        out(
          `Created webhook endpoint ${e.endpointId} for ${e.url}\n` +
            `  types:  ${e.types?.join(', ') ?? 'all'}\n  graphs: ${graphsOf(e)}\n\n` +
            `Signing secret:\n\n  ${e.secret}\n\nStore it now: it is shown only once.\n`,
        );
      },
    );

  webhooks
    .command('list')
    .description("List an account's endpoints (secrets masked) and whether each is enabled")
    .requiredOption('--account <name>', 'account whose endpoints to list')
    .option('--json', 'print one JSON endpoint per line')
    .action(async (opts: { account: string; json?: boolean }) => {
      const rows = await service((s) => s.list(opts.account));
      out(opts.json ? jsonLines(rows.map(toJson)) : formatEndpoints(rows));
    });

  webhooks
    .command('delete')
    .description('Delete an endpoint with its deliveries; nothing more is sent to it')
    .argument('<id>', 'endpoint id (we_…)')
    .action(async (id: string) => {
      const e = await service((s) => s.delete(id));
      out(`Deleted webhook endpoint ${id} (${e.url}).\n`);
    });

  webhooks
    .command('rotate-secret')
    .description('Make a new signing secret; the old one also signs until the overlap ends')
    .argument('<id>', 'endpoint id (we_…)')
    .option('--json', 'print one JSON object, new secret included')
    .action(async (id: string, opts: { json?: boolean }) => {
      const e = await service((s) => s.rotateSecret(id));
      if (opts.json) return out(`${JSON.stringify({ ...toJson(e), secret: e.secret })}\n`);
      out(
        `New signing secret of ${id}:\n\n  ${e.secret}\n\nStore it now: it is shown only once. ` +
          `Deliveries carry a signature with the old secret too until ${iso(e.previousSecretUntil)}.\n`,
      );
    });

  webhooks
    .command('enable')
    .description('Turn a disabled endpoint back on; its pending deliveries are tried again now')
    .argument('<id>', 'endpoint id (we_…)')
    .action(async (id: string) => {
      await service((s) => s.enable(id));
      out(`Enabled webhook endpoint ${id}.\n`);
    });

  webhooks
    .command('test')
    .description('Send a webhook.test notice to the endpoint now and print what it answered')
    .argument('<id>', 'endpoint id (we_…)')
    .option('--json', 'print one JSON object')
    .action(async (id: string, opts: { json?: boolean }) => {
      const { noticeId, sent } = await service((s) => s.test(id));
      const r = sent?.result;
      if (opts.json)
        return out(
          `${JSON.stringify({ notice_id: noticeId, outcome: sent?.outcome ?? 'queued', status_code: r?.statusCode ?? null, duration_ms: r ? Math.round(r.durationMs) : null, error: r?.error ?? null })}\n`,
        );
      if (!sent || !r) return out(`Test notice ${noticeId} queued; an ingestor is sending it.\n`);
      const answer = r.statusCode !== null ? `answered ${r.statusCode}` : `failed: ${r.error}`;
      out(
        `Test notice ${noticeId}: ${answer} in ${Math.round(r.durationMs)} ms (${sent.outcome === 'delivered' ? 'delivered' : 'will be retried'}).\n`,
      );
    });

  webhooks
    .command('deliveries')
    .description("An endpoint's delivery attempts, newest first")
    .argument('<id>', 'endpoint id (we_…)')
    .option('--limit <n>', 'attempts to show', integerIn(1, 10_000), 50)
    .option('--json', 'print one JSON attempt per line')
    .action(async (id: string, opts: { limit: number; json?: boolean }) => {
      const rows = await service((s) => s.attempts(id, opts.limit));
      out(opts.json ? jsonLines(rows.map(attemptJson)) : formatAttempts(rows));
    });
}

const graphsOf = (e: WebhookEndpointRow) => e.graphKeys?.map(graphPublicId).join(', ') ?? 'all';

const toJson = (e: WebhookEndpointRow) => ({
  id: e.endpointId,
  url: e.url,
  types: e.types,
  graph_ids: e.graphKeys?.map(graphPublicId) ?? null,
  masked_secret: maskWebhookSecret(e.secret),
  status: e.disabled === null ? 'enabled' : 'disabled',
  disabled: e.disabled,
  disabled_reason: e.disabledReason,
  created: e.created,
});

const attemptJson = (a: AttemptRow) => ({
  notice_id: a.noticeId,
  delivery: a.deliveryId,
  attempt: a.attemptNo,
  started: a.started,
  duration_ms: a.durationMs,
  status_code: a.statusCode,
  error: a.error,
});

function formatEndpoints(rows: WebhookEndpointRow[]): string {
  if (rows.length === 0) return 'No webhook endpoints.\n';
  return textTable([
    ['ID', 'URL', 'TYPES', 'GRAPHS', 'SECRET', 'STATUS', 'CREATED'],
    ...rows.map((e) => [
      e.endpointId,
      e.url,
      e.types?.join(',') ?? 'all',
      e.graphKeys?.map(graphPublicId).join(',') ?? 'all',
      maskWebhookSecret(e.secret),
      e.disabled === null ? 'enabled' : `disabled ${iso(e.disabled)} (${e.disabledReason})`,
      iso(e.created),
    ]),
  ]);
}

function formatAttempts(rows: AttemptRow[]): string {
  if (rows.length === 0) return 'No delivery attempts.\n';
  return textTable([
    ['STARTED', 'NOTICE', 'ATTEMPT', 'RESULT', 'MS'],
    ...rows.map((a) => [
      iso(a.started),
      a.noticeId,
      String(a.attemptNo),
      a.statusCode !== null ? String(a.statusCode) : (a.error ?? '-'),
      String(a.durationMs),
    ]),
  ]);
}
