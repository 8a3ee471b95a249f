import { Command } from 'commander';
import type { Graph } from '@graph-history/client';
import { CliIo, jsonLines } from '../io';
import { READ_OPTIONS, ReadOptions, readClient, reading } from '../read/read-client';
import { textTable } from '../text-table';

const time = (ms: number | null): string =>
  ms === null ? '-' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** Every token of a graph's usage: fresh and cached input, cache writes, output. */
const tokensOf = (u: Graph['usage']): number =>
  u.input_tokens + u.cache_read_tokens + u.cache_creation_tokens + u.output_tokens;

export function registerGraphsCommand(program: Command, io: CliIo): void {
  program
    .command('graphs')
    .description("List the account's shares, most recently active first")
    .option(...READ_OPTIONS.key)
    .option(...READ_OPTIONS.apiUrl)
    .option('--json', 'print one JSON graph per line')
    .action(async (opts: ReadOptions & { json?: boolean }) => {
      const session = readClient(io, opts);
      const graphs = await reading(session, () =>
        session.client.graphs.list({ limit: 1_000 }).toArray({ limit: Infinity }),
      );
      if (opts.json) io.stdout.write(jsonLines(graphs));
      else io.stdout.write(graphTable(graphs));
    });
}

function graphTable(graphs: Graph[]): string {
  if (graphs.length === 0) return 'No graphs yet: share one with `graph-history watch`.\n';
  return textTable([
    [
      'GRAPH',
      'NODES',
      'SESSIONS',
      'AGENTS',
      'WORKING',
      'BLOCKED',
      'STALE',
      'EVENTS',
      'TOKENS',
      'EST. COST',
      'LAST EVENT (UTC)',
      'VIEWER',
    ],
    ...graphs.map((g) => [
      g.id,
      String(g.counts.nodes),
      String(g.counts.sessions),
      String(g.counts.agents),
      String(g.counts.by_state.working),
      String(g.counts.blocked),
      String(g.counts.stale),
      String(g.retention.event_count),
      String(tokensOf(g.usage)),
      g.usage.cost_usd === null ? '-' : `$${g.usage.cost_usd.toFixed(2)}`,
      time(g.last_event),
      g.url,
    ]),
  ]);
}
