import { CliError } from '../cli-error';
import { IngestClient, IngestRequestError } from '../ingest-client';
import { Batch, eventBatches } from './event-file';

export interface IngestTotals {
  sent: number;
  accepted: number;
  duplicates: number;
  graphs: number;
}

/**
 * Sends a file's events batch after batch, each only after the previous one was answered. A
 * refused batch stops the run with the server's message and the file line it points at; re-running
 * afterwards is safe (events already stored count as duplicates).
 */
export async function ingestFile(
  file: string,
  defaultGraph: string | undefined,
  client: IngestClient,
  onBatch: (totals: IngestTotals) => void = () => undefined,
): Promise<IngestTotals> {
  const totals: IngestTotals = { sent: 0, accepted: 0, duplicates: 0, graphs: 0 };
  const graphs = new Set<string>();
  for await (const batch of eventBatches(file, defaultGraph)) {
    const result = await client
      .send(
        batch.graph,
        batch.lines.map((l) => l.event),
      )
      .catch((err: unknown) => {
        throw err instanceof IngestRequestError ? refusal(err, batch) : err;
      });
    graphs.add(batch.graph);
    totals.sent += batch.lines.length;
    totals.accepted += result.accepted;
    totals.duplicates += result.duplicates;
    totals.graphs = graphs.size;
    onBatch({ ...totals });
  }
  return totals;
}

function refusal(err: IngestRequestError, batch: Batch): CliError {
  const where = /^events\[(\d+)\]/.exec(err.body?.param ?? '');
  const line = where ? batch.lines[Number(where[1])] : undefined;
  const at = line ? `line ${line.lineNo} (graph ${batch.graph})` : `graph ${batch.graph}`;
  const status = err.status ? ` [${err.status}${err.body ? ` ${err.body.code}` : ''}]` : '';
  return new CliError(`${at}: ${err.message}${status}`);
}
