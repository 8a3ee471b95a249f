import { sql } from 'kysely';
import { Repository } from './repository';

export interface TrimProgress {
  /** Oldest retained seq (null before the first applied event). */
  firstSeq: number | null;
  /** Rows before this seq are already deleted. */
  trimmedSeq: number;
}

/**
 * Deletes what retention cut off: events before first_seq, and version rows, task snapshots,
 * messages and ended waits no retained as_of reaches; idempotency keys beyond a documented cap.
 */
export class TrimRepository extends Repository {
  async progress(graphId: number): Promise<TrimProgress | null> {
    const row = await this.db
      .selectFrom('graphs')
      .select(['first_seq', 'trimmed_seq'])
      .where('graph_id', '=', graphId)
      .executeTakeFirst();
    return row ? { firstSeq: row.first_seq, trimmedSeq: row.trimmed_seq } : null;
  }

  /**
   * Trims the seq range [from, to) (to <= first_seq): deletes its events, and every version row /
   * task snapshot superseded by a newer one with seq in (from, to] — none of which an as_of >= to
   * can reach. Versions superseded at or before `from` went in earlier chunks. Messages sent and
   * waits ended before `to` go too (reads show those of the retained history only), and the
   * idempotency keys of events older than the newest `keysKept` before `to`. Returns rows deleted.
   * Its statements belong together: run it on a transaction (`in(trx)`).
   */
  async trimChunk(graphId: number, from: number, to: number, keysKept: number): Promise<number> {
    const events = await this.db
      .deleteFrom('events')
      .where('graph_id', '=', graphId)
      .where('seq', '>=', from)
      .where('seq', '<', to)
      .executeTakeFirst();
    const versions = await sql`delete from node_versions v
      using (select node_no, max(valid_from) as newest from node_versions
             where graph_id = ${graphId} and valid_from > ${from} and valid_from <= ${to}
             group by node_no) n
      where v.graph_id = ${graphId} and v.node_no = n.node_no and v.valid_from < n.newest`.execute(
      this.db,
    );
    const snapshots = await sql`delete from task_snapshots t
      using (select node_no, max(seq) as newest from task_snapshots
             where graph_id = ${graphId} and seq > ${from} and seq <= ${to}
             group by node_no) n
      where t.graph_id = ${graphId} and t.node_no = n.node_no and t.seq < n.newest`.execute(
      this.db,
    );
    // No lower bound: rows of graphs trimmed before these were trimmed go in the next chunk.
    const messages = await this.db
      .deleteFrom('messages')
      .where('graph_id', '=', graphId)
      .where('seq', '<', to)
      .executeTakeFirst();
    const waits = await this.db
      .deleteFrom('waits')
      .where('graph_id', '=', graphId)
      .where('ended_seq', '<', to)
      .executeTakeFirst();
    const keys = await this.db
      .deleteFrom('event_keys')
      .where('graph_id', '=', graphId)
      .where('seq', '<', to - keysKept)
      .executeTakeFirst();
    await this.db
      .updateTable('graphs')
      .set({ trimmed_seq: to })
      .where('graph_id', '=', graphId)
      .where('trimmed_seq', '<', to)
      .execute();
    return (
      Number(events.numDeletedRows) +
      Number(versions.numAffectedRows ?? 0) +
      Number(snapshots.numAffectedRows ?? 0) +
      Number(messages.numDeletedRows) +
      Number(waits.numDeletedRows) +
      Number(keys.numDeletedRows)
    );
  }
}
