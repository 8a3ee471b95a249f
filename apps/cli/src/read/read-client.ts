import { GraphHistory, GraphHistoryError } from '@graph-history/client';
import { CliError } from '../cli-error';
import { CliIo, cliConfig } from '../io';

export interface ReadOptions {
  key?: string;
  apiUrl?: string;
}

/** The read commands' options: a key and where the read API answers. */
export const READ_OPTIONS = {
  key: ['--key <key>', 'API key, secret or restricted (default: GRAPH_HISTORY_KEY)'],
  apiUrl: [
    '--api-url <url>',
    'read API base URL (default: GRAPH_HISTORY_API_URL, else http://127.0.0.1:3000)',
  ],
} as const;

export interface ReadSession {
  client: GraphHistory;
  /** The read API base URL in use, for messages. */
  apiUrl: string;
}

/**
 * A client of the read API from `--key`/`--api-url`, else GRAPH_HISTORY_KEY/GRAPH_HISTORY_API_URL,
 * else the running `start`'s API.
 */
export function readClient(io: CliIo, opts: ReadOptions): ReadSession {
  const config = cliConfig(io);
  const apiKey = opts.key ?? config.GRAPH_HISTORY_KEY;
  if (!apiKey) {
    throw new CliError(
      'No API key: pass --key or set GRAPH_HISTORY_KEY (create one with `keys create --account NAME`).',
    );
  }
  const baseUrl = opts.apiUrl ?? config.GRAPH_HISTORY_API_URL;
  if (!URL.canParse(baseUrl))
    throw new CliError(`--api-url: ${JSON.stringify(baseUrl)} is not a URL.`);
  return { client: new GraphHistory({ apiKey, baseUrl }), apiUrl: baseUrl };
}

/** Runs a read; an API error becomes one line with its code and request id. */
export async function reading<T>(session: ReadSession, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof GraphHistoryError)) throw err;
    if (err.code === 'connection_error') {
      const cause = (err as { cause?: { cause?: { code?: string } } }).cause?.cause?.code;
      throw new CliError(
        `Could not reach the API at ${session.apiUrl}${cause ? ` (${cause})` : ''}: is \`pnpm start\` running? If it listens elsewhere, pass --api-url or set GRAPH_HISTORY_API_URL.`,
      );
    }
    const where = [err.code, err.requestId].filter(Boolean).join(', ');
    throw new CliError(`${err.message} (${where})`);
  }
}

/** `gph_<key>` for a graph named by its id or its key. */
export const graphIdOf = (graph: string): string =>
  graph.startsWith('gph_') ? graph : `gph_${graph}`;
