import { sql } from 'kysely';
import { Db } from '@graph-history/db';

/**
 * Appends `event` to a graph's inbox as the next seq WITHOUT ingest validation, as if an older
 * validator had let it through: the way tests provoke an event the reducer refuses at apply time.
 * Its bytes are counted as ingest counts them (event_keys.bytes, graphs.stored_bytes).
 */
export async function storeUnchecked(db: Db, graphId: number, event: unknown): Promise<number> {
  const body = JSON.stringify(event);
  const bytes = Buffer.byteLength(body);
  const { rows } = await sql<{ seq: number }>`with next as (
      update graphs set ingested_seq = ingested_seq + 1, stored_bytes = stored_bytes + ${bytes}
      where graph_id = ${graphId}
      returning ingested_seq as seq),
    stored as (
      insert into inbox (graph_id, seq, body, received)
      select ${graphId}, seq, ${body}::jsonb, ${Date.now()} from next)
    insert into event_keys (graph_id, key, seq, bytes)
    select ${graphId}, ${(event as { key: string }).key}, seq, ${bytes} from next
    returning seq`.execute(db);
  return rows[0]!.seq;
}
