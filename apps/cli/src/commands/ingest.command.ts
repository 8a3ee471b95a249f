import { Command } from 'commander';
import { CliError } from '../cli-error';
import { IngestClient, RetryNotice } from '../ingest-client';
import { scanEventFile } from '../ingest/event-file';
import { ingestFile, IngestTotals } from '../ingest/file-ingester';
import { createProgress } from '../ingest/progress';
import { CliIo, cliConfig } from '../io';

interface IngestOptions {
  file: string;
  graph?: string;
  url?: string;
  key?: string;
}

const n = (v: number) => v.toLocaleString('en-US');

export function registerIngestCommand(program: Command, io: CliIo): void {
  program
    .command('ingest')
    .description('Send a JSONL file of WatchEvents to the ingest endpoint (safe to re-run)')
    .requiredOption(
      '--file <path>',
      'JSONL file: WatchEvent lines, or {"graph": KEY, "event": WatchEvent} lines',
    )
    .option('--graph <key>', 'graph key for lines that do not name their graph')
    .option(
      '--url <url>',
      'ingest base URL (default: GRAPH_HISTORY_URL, else http://127.0.0.1:3001)',
    )
    .option('--key <key>', 'secret API key (default: GRAPH_HISTORY_KEY)')
    .action(async (opts: IngestOptions) => {
      const config = cliConfig(io);
      const key = opts.key ?? config.GRAPH_HISTORY_KEY;
      if (!key) {
        throw new CliError(
          'No API key: pass --key or set GRAPH_HISTORY_KEY (create one with `keys create --account NAME`).',
        );
      }
      const url = opts.url ?? config.GRAPH_HISTORY_URL;
      if (!URL.canParse(url)) throw new CliError(`--url: ${JSON.stringify(url)} is not a URL.`);
      const total = await scanEventFile(opts.file, opts.graph);
      const progress = createProgress(io.stderr, total);
      const client = new IngestClient({
        url,
        key,
        onRetry: (r) => io.stderr.write(`${retryLine(r)}\n`),
      });
      let totals: IngestTotals;
      try {
        totals = await ingestFile(opts.file, opts.graph, client, (t) => progress.update(t));
      } finally {
        progress.stop();
      }
      io.stdout.write(
        `Sent ${n(totals.sent)} events to ${n(totals.graphs)} graph${totals.graphs === 1 ? '' : 's'}: ` +
          `${n(totals.accepted)} accepted, ${n(totals.duplicates)} duplicates.\n`,
      );
    });
}

/** The first failed try says what is retried, where, and the likely fix; later ones are short. */
function retryLine(r: RetryNotice): string {
  const next = `retrying in ${(r.delayMs / 1000).toFixed(1)} s (attempt ${r.attempt + 1} of ${r.attempt + r.attemptsLeft})`;
  if (r.attempt > 1) return `${next}: ${r.reason}`;
  const hint = r.unreachable
    ? ' Is `pnpm start` running? If the ingestor listens elsewhere, pass --url or set GRAPH_HISTORY_URL.'
    : '';
  return `Sending the batch failed: ${r.reason}.${hint} Re-sending it (safe: repeats count as duplicates), ${next}.`;
}
