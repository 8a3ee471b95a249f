import type { FilePosition } from './line-reader';

export const START: FilePosition = { offset: 0, lineNo: 0 };

/**
 * How far one transcript file is read and how far it is sent. Lines are sent in time order, not
 * file order, so the saved position is the end of the longest run of lines from the start that
 * were all sent (or needed no sending): a restart reads the rest again.
 */
export class FileProgress {
  /** Where the next read starts. */
  read: FilePosition;
  /** Everything before this was sent; saved in the snapshot. */
  committed: FilePosition;
  private readonly open: Array<{ seq: number; end: FilePosition; done: boolean }> = [];

  constructor(from: FilePosition = START) {
    this.read = from;
    this.committed = from;
  }

  /** A line read; `seq` is its place in the reorder buffer, undefined when it has nothing to send. */
  readLine(end: FilePosition, seq?: number): void {
    this.open.push({ seq: seq ?? -1, end, done: seq === undefined });
    this.read = end;
    this.advance();
  }

  /** Lines skipped by the reader (over the size limit) still move the read position. */
  skipTo(end: FilePosition): void {
    this.open.push({ seq: -1, end, done: true });
    this.read = end;
    this.advance();
  }

  sent(seqs: ReadonlySet<number>): void {
    for (const entry of this.open) if (seqs.has(entry.seq)) entry.done = true;
    this.advance();
  }

  restart(): void {
    this.open.length = 0;
    this.read = START;
    this.committed = START;
  }

  private advance(): void {
    while (this.open[0]?.done) this.committed = this.open.shift()!.end;
  }
}
