import { sql } from 'kysely';
import { Repository } from './repository';
import { GenerateSql } from '../sql-text/generate-sql';

export interface PendingGraph {
  graphId: number;
  accountId: number;
  /** Last applied seq. */
  appliedSeq: number;
  /** Stored events not yet applied. */
  unapplied: number;
  /** Retention moved first_seq past trimmed_seq: rows wait for the trim job. */
  trimDue: boolean;
  /** Quarantined at an event the reducer refused: no apply until an operator resolves it. */
  stalled: boolean;
}

/** Graphs with work left (Postgres is the source of truth; jobs are re-derived from it). */
export class PendingWorkRepository extends Repository {
  @GenerateSql({ params: [100] })
  async list(limit: number): Promise<PendingGraph[]> {
    // The predicate matches the partial index graphs_pending_work.
    const rows = await this.db
      .selectFrom('graphs')
      .select([
        'graph_id',
        'account_id',
        'ingested_seq',
        'applied_seq',
        'first_seq',
        'trimmed_seq',
        'stalled_seq',
      ])
      .where(sql<boolean>`applied_seq < ingested_seq or trimmed_seq < first_seq`)
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      graphId: r.graph_id,
      accountId: r.account_id,
      appliedSeq: r.applied_seq,
      unapplied: r.ingested_seq - r.applied_seq,
      trimDue: r.first_seq !== null && r.trimmed_seq < r.first_seq,
      stalled: r.stalled_seq !== null,
    }));
  }
}
