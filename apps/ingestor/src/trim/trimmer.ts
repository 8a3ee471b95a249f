import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { NoticeRepository, TrimRepository, Transactions } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';

/**
 * The settings of trimming: seqs deleted per transaction, idempotency keys kept per graph,
 * notices kept per account.
 */
export type TrimSettings = Pick<
  Config,
  'TRIM_CHUNK_SEQS' | 'IDEMPOTENCY_KEYS_KEPT' | 'NOTICES_KEPT'
>;

/**
 * Deletes what retention cut off, in bounded chunks of seqs, one transaction each; progress is
 * recorded in trimmed_seq by every chunk, so an interrupted trim resumes where it stopped. Then
 * the notices of the graph's account beyond the newest NOTICES_KEPT.
 */
@Injectable()
export class Trimmer {
  constructor(
    private readonly transactions: Transactions,
    private readonly trimRows: TrimRepository,
    private readonly noticeRows: NoticeRepository,
    @Inject(CONFIG) private readonly settings: TrimSettings,
  ) {}

  /** Trims the graph up to its current first_seq; returns the number of rows deleted. */
  async trim(graphId: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const progress = await this.trimRows.progress(graphId);
      if (!progress || progress.firstSeq === null || progress.trimmedSeq >= progress.firstSeq)
        return deleted + (await this.noticeRows.trimAccountOf(graphId, this.settings.NOTICES_KEPT));
      const from = progress.trimmedSeq;
      const to = Math.min(from + this.settings.TRIM_CHUNK_SEQS, progress.firstSeq);
      deleted += await this.transactions.run((trx) =>
        this.trimRows.in(trx).trimChunk(graphId, from, to, this.settings.IDEMPOTENCY_KEYS_KEPT),
      );
    }
  }
}
