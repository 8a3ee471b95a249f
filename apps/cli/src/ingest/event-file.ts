import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { CliError } from '../cli-error';
import { EventLine, parseEventLine } from './event-line';

export const MAX_BATCH_EVENTS = 1_000;
/** Stays clear of the endpoint's 4 MiB body limit, envelope included. */
export const MAX_BATCH_BYTES = 4 * 1024 * 1024 - 64 * 1024;

export interface Batch {
  graph: string;
  lines: EventLine[];
}

async function* readEventLines(
  file: string,
  defaultGraph: string | undefined,
): AsyncGenerator<EventLine> {
  await access(file).catch(() => {
    throw new CliError(`Cannot read ${file}: no such file, or no permission.`);
  });
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let lineNo = 0;
  for await (const text of lines) {
    lineNo++;
    if (text.trim() !== '') yield parseEventLine(text, lineNo, defaultGraph);
  }
}

/** Checks every line before anything is sent, so a bad line fails the run up front; returns the event count. */
export async function scanEventFile(
  file: string,
  defaultGraph: string | undefined,
): Promise<number> {
  let events = 0;
  for await (const _line of readEventLines(file, defaultGraph)) events++;
  return events;
}

/**
 * The file's events as batches of one graph each, at most 1,000 events and ~4 MiB, in file order
 * within each graph (a batch is yielded when full; the rest at the end).
 */
export async function* eventBatches(
  file: string,
  defaultGraph: string | undefined,
): AsyncGenerator<Batch> {
  const open = new Map<string, { lines: EventLine[]; bytes: number }>();
  for await (const line of readEventLines(file, defaultGraph)) {
    let batch = open.get(line.graph);
    if (batch && batch.bytes + line.bytes > MAX_BATCH_BYTES) {
      yield { graph: line.graph, lines: batch.lines };
      batch = undefined;
    }
    if (!batch) open.set(line.graph, (batch = { lines: [], bytes: 0 }));
    batch.lines.push(line);
    batch.bytes += line.bytes;
    if (batch.lines.length === MAX_BATCH_EVENTS) {
      open.delete(line.graph);
      yield { graph: line.graph, lines: batch.lines };
    }
  }
  for (const [graph, batch] of open) yield { graph, lines: batch.lines };
}
