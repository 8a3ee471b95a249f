import { Db, inTransaction, TrimRepository } from '@graph-history/db';

/**
 * Deletes what retention cut off, in bounded chunks of seqs, one transaction each; progress is
 * recorded in trimmed_seq by every chunk, so an interrupted trim resumes where it stopped.
 */
export class Trimmer {
  constructor(
    private readonly db: Db,
    private readonly chunkSeqs = 1_000,
  ) {}

  /** Trims the graph up to its current first_seq; returns the number of rows deleted. */
  async trim(graphId: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const progress = await new TrimRepository(this.db).progress(graphId);
      if (!progress || progress.firstSeq === null || progress.trimmedSeq >= progress.firstSeq)
        return deleted;
      const from = progress.trimmedSeq;
      const to = Math.min(from + this.chunkSeqs, progress.firstSeq);
      deleted += await inTransaction(this.db, (trx) =>
        new TrimRepository(trx).trimChunk(graphId, from, to),
      );
    }
  }
}
