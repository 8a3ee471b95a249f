import { SingleBar } from 'cli-progress';
import { OutputStream } from '../io';
import { IngestTotals } from './file-ingester';

export interface Progress {
  update(totals: IngestTotals): void;
  stop(): void;
}

/** A progress bar on a terminal; nothing when stderr is a file or pipe. */
export function createProgress(stream: OutputStream, total: number): Progress {
  if (!stream.isTTY) return { update: () => undefined, stop: () => undefined };
  const bar = new SingleBar({
    stream: stream as NodeJS.WriteStream,
    format:
      'Ingesting [{bar}] {value}/{total} events | {accepted} accepted, {duplicates} duplicates',
    hideCursor: true,
  });
  bar.start(total, 0, { accepted: 0, duplicates: 0 });
  return {
    update: (t) => bar.update(t.sent, { accepted: t.accepted, duplicates: t.duplicates }),
    stop: () => bar.stop(),
  };
}
