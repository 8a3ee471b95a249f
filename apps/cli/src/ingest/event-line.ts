import { isGraphKey, parseWatchEvent } from '@graph-history/domain';
import { CliError } from '../cli-error';

/** One line of an events file, either a plain WatchEvent or `{"graph": KEY, "event": WatchEvent}`. */
export interface EventLine {
  lineNo: number;
  graph: string;
  event: unknown;
  /** Length of the line, to keep request bodies under the endpoint's 4 MiB. */
  bytes: number;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses and shape-checks one non-blank line; a bad line is a CliError naming the line and field. */
export function parseEventLine(
  text: string,
  lineNo: number,
  defaultGraph: string | undefined,
): EventLine {
  const value = parseJson(text, lineNo);
  const named =
    isObject(value) && Object.keys(value).length === 2 && 'graph' in value && 'event' in value;
  const graph = named ? value.graph : defaultGraph;
  const event = named ? value.event : value;
  if (graph === undefined) {
    throw new CliError(
      `line ${lineNo}: the line names no graph; pass --graph KEY or write {"graph": KEY, "event": …} lines.`,
    );
  }
  if (typeof graph !== 'string' || !isGraphKey(graph)) {
    throw new CliError(
      `line ${lineNo}: invalid graph key ${JSON.stringify(graph)}; use 1 to 64 of A-Z a-z 0-9 _ -.`,
    );
  }
  const parsed = parseWatchEvent(event);
  if (!parsed.ok) throw new CliError(`line ${lineNo}: ${parsed.rejection.message}`);
  return { lineNo, graph, event, bytes: Buffer.byteLength(text) };
}

function parseJson(text: string, lineNo: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`line ${lineNo}: not valid JSON; each line must be one JSON object.`);
  }
}
