import { sql } from 'kysely';
import { Repository } from './repository';
import { GenerateSql } from '../sql-text/generate-sql';

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
  @GenerateSql({ params: [1] })
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
   * idempotency keys of events older than the newest `keysKept` before `to`. The graph's
   * stored_bytes loses what the deleted events weigh (their keys' bytes). Returns rows deleted.
   * Its statements belong together: run it on a transaction (`in(trx)`).
   */
  @GenerateSql({ params: [1, 1, 2, 100] })
  async trimChunk(graphId: number, from: number, to: number, keysKept: number): Promise<number> {
    // What the deleted events weigh, read from their keys before the key cap may delete those.
    const {
      rows: [events],
    } = await sql<{ deleted: number; bytes: number }>`with
        deleted as (delete from events where graph_id = ${graphId} and seq >= ${from} and seq < ${to}
                    returning 1)
      select (select count(*)::int from deleted) as deleted,
        (select coalesce(sum(bytes), 0)::bigint from event_keys
         where graph_id = ${graphId} and seq >= ${from} and seq < ${to}) as bytes`.execute(this.db);
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
    // Last: the graph row stays unlocked for ingest and apply while the rows above go.
    await this.db
      .updateTable('graphs')
      .set((eb) => ({
        trimmed_seq: to,
        stored_bytes: eb('stored_bytes', '-', Number(events!.bytes)),
      }))
      .where('graph_id', '=', graphId)
      .where('trimmed_seq', '<', to)
      .execute();
    return (
      events!.deleted +
      Number(versions.numAffectedRows ?? 0) +
      Number(snapshots.numAffectedRows ?? 0) +
      Number(messages.numDeletedRows) +
      Number(waits.numDeletedRows) +
      Number(keys.numDeletedRows)
    );
  }
}
