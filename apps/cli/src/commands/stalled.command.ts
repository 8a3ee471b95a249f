import { Command } from 'commander';
import { StalledGraph } from '@graph-history/db';
import { graphPublicId } from '@graph-history/domain';
import { withDatabase } from '../database';
import { CliIo, cliConfig, jsonLines } from '../io';
import { StallAction, StalledGraphsService } from '../stalled/stalled-graphs.service';

const toJson = (g: StalledGraph) => ({
  graph_id: graphPublicId(g.graphKey),
  account_id: g.accountId,
  event_seq: g.stalledSeq,
  event_key: g.eventKey,
  error: g.error,
  since: g.since,
  waiting: g.waiting,
});

const describe = (g: StalledGraph): string =>
  `${graphPublicId(g.graphKey)}  event ${g.stalledSeq} (key ${g.eventKey ?? '-'})  since ` +
  `${new Date(g.since).toISOString()}  ${g.waiting} waiting  ${g.error}`;

export function registerStalledCommand(program: Command, io: CliIo): void {
  const stalled = program
    .command('stalled')
    .description('Graphs whose apply stopped at an event the reducer refused: list, skip, retry');
  const service = <T>(fn: (s: StalledGraphsService) => Promise<T>) =>
    withDatabase(cliConfig(io), (db) => fn(new StalledGraphsService(db)));

  stalled
    .command('list')
    .description('List stalled graphs, longest stalled first')
    .option('--json', 'print one JSON graph per line')
    .action(async (opts: { json?: boolean }) => {
      const rows = await service((s) => s.list());
      if (opts.json) io.stdout.write(jsonLines(rows.map(toJson)));
      else
        io.stdout.write(
          rows.length ? rows.map(describe).join('\n') + '\n' : 'No stalled graphs.\n',
        );
    });

  const resolve = (action: StallAction, description: string, done: string) =>
    stalled
      .command(action)
      .description(description)
      .argument('<graph>', 'graph id (gph_…) as shown by stalled list')
      .action(async (graph: string) => {
        const stall = await service((s) => s.resolve(graph, action));
        io.stdout.write(`${graphPublicId(stall.graphKey)}: event ${stall.stalledSeq} ${done}\n`);
      });
  resolve(
    'skip',
    'Drop the refused event (its key may be sent again); the events after it apply',
    'dropped; the graph applies again.',
  );
  resolve(
    'retry',
    'Try the refused event again (after a fix); it stalls again if still refused',
    'will be tried again within a second.',
  );
}
