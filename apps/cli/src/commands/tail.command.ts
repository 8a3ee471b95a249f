import { Command } from 'commander';
import type { FollowItem, GraphHistory } from '@graph-history/client';
import { CliError } from '../cli-error';
import { CliIo, write } from '../io';
import { eventLine, gapLine } from '../read/event-line';
import { NodeLabels } from '../read/node-labels';
import { graphIdOf, READ_OPTIONS, ReadOptions, readClient, reading } from '../read/read-client';

interface TailOptions extends ReadOptions {
  asOf?: string;
  json?: boolean;
}

export function registerTailCommand(program: Command, io: CliIo): void {
  program
    .command('tail')
    .description('Print the events of a graph as they arrive, one line each, until interrupted')
    .argument('<graph>', 'graph id (gph_…) or key')
    .option('--as-of <moment>', 'start after this event (evt_…) or time (ms) instead of now')
    .option('--json', 'print each event as one JSON line')
    .option(...READ_OPTIONS.key)
    .option(...READ_OPTIONS.apiUrl)
    .action(async (graph: string, opts: TailOptions) => {
      const session = readClient(io, opts);
      const { client } = session;
      const graphId = graphIdOf(graph);
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
      try {
        await reading(session, async () => {
          const after = await startingPoint(client, graphId, opts.asOf);
          const print = opts.json ? jsonLines() : readableLines(client, graphId);
          // follow reads the graph's event stream (it polls only an API without one)
          const items = client.events.follow(graphId, {
            after,
            signal: stop.signal,
            ...(opts.json ? {} : { expand: ['data.node'] as const }),
          });
          for await (const item of items) await write(io.stdout, await print(item));
        });
      } finally {
        process.removeListener('SIGINT', onSignal).removeListener('SIGTERM', onSignal);
      }
    });
}

/** The event to follow after: the graph's newest now, or the one `--as-of` names or reaches. */
async function startingPoint(
  client: GraphHistory,
  graphId: string,
  asOf: string | undefined,
): Promise<string | null> {
  if (asOf === undefined) return (await client.graphs.retrieve(graphId)).retention.last_event_id;
  if (!/^(evt_[A-Za-z0-9_-]+|[0-9]+)$/.test(asOf))
    throw new CliError(
      `--as-of: expected an event id (evt_…) or a time in ms, got ${JSON.stringify(asOf)}.`,
    );
  const moment = await client.graphs.retrieve(graphId, { asOf });
  return moment.as_of_event_id;
}

const jsonLines = () => async (item: FollowItem) => `${JSON.stringify(item)}\n`;

function readableLines(client: GraphHistory, graphId: string) {
  const labels = new NodeLabels(client, graphId);
  return async (item: FollowItem<'data.node'>): Promise<string> => {
    if (item.object === 'retention_gap') return `${gapLine(item)}\n`;
    if (item.data.node) labels.learn(item.data.node);
    const names = new Map<string, string>();
    for (const id of [item.node_id, ...item.changes.map((c) => c.node_id)])
      names.set(id, await labels.of(id, item.id));
    return `${eventLine(item, (id) => names.get(id) ?? id)}\n`;
  };
}
