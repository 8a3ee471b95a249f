import { sql } from 'kysely';
import { Repository } from './repository';
import { GenerateSql } from '../sql-text/generate-sql';

/** A graph whose apply stopped at an event the reducer refused. */
export interface StalledGraph {
  graphId: number;
  graphKey: string;
  accountId: number;
  /** The refused event and its idempotency key. */
  stalledSeq: number;
  eventKey: string | null;
  error: string;
  /** When the stall was recorded (ms). */
  since: number;
  /** Stored events waiting behind it (itself included). */
  waiting: number;
}

/** The operator's side of quarantined graphs: list them, retry or skip the refused event. */
export class StalledGraphRepository extends Repository {
  /** Stalled graphs, longest stalled first; only `graphKey`'s when given. */
  @GenerateSql({ params: [] }, { name: 'one graph', params: [10, 'g1'] })
  async list(limit = 1_000, graphKey?: string): Promise<StalledGraph[]> {
    const only = graphKey === undefined ? sql`true` : sql`g.graph_key = ${graphKey}`;
    const rows = await sql<{
      graph_id: number;
      graph_key: string;
      account_id: number;
      stalled_seq: number;
      stalled_error: string;
      stalled_at: number;
      waiting: number;
      key: string | null;
    }>`select g.graph_id, g.graph_key, g.account_id, g.stalled_seq, g.stalled_error, g.stalled_at,
        g.ingested_seq - g.applied_seq as waiting,
        (select k.key from event_keys k
         where k.graph_id = g.graph_id and k.seq = g.stalled_seq limit 1) as key
      from graphs g where g.stalled_seq is not null and ${only}
      order by g.stalled_at, g.graph_id limit ${limit}`.execute(this.db);
    return rows.rows.map((r) => ({
      graphId: r.graph_id,
      graphKey: r.graph_key,
      accountId: r.account_id,
      stalledSeq: r.stalled_seq,
      eventKey: r.key,
      error: r.stalled_error,
      since: r.stalled_at,
      waiting: Number(r.waiting),
    }));
  }

  @GenerateSql({ params: [] })
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('graphs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('stalled_seq', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The stall of one graph by key, or null when it applies normally (or does not exist). */
  @GenerateSql({ params: ['g1'] })
  async find(graphKey: string): Promise<StalledGraph | null> {
    return (await this.list(1, graphKey))[0] ?? null;
  }

  /** Clears the stall so the event is tried again; false when the graph is no longer stalled there. */
  @GenerateSql({ params: [1, 1] })
  async retry(graphId: number, seq: number): Promise<boolean> {
    const result = await this.db
      .updateTable('graphs')
      .set({ stalled_seq: null, stalled_error: null, stalled_at: null })
      .where('graph_id', '=', graphId)
      .where('stalled_seq', '=', seq)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Drops the refused event as if it had never been stored: its inbox row and idempotency key go
   * (a corrected event may be sent again under the same key), the events stored after it move down
   * one seq, ingested_seq with them, and the stall is cleared. Nothing applied changes. Holds the
   * graph row lock, and moving ingested_seq makes a concurrent ingest append start over. Run it on
   * a transaction (`in(trx)`); false when the graph is no longer stalled at `seq`.
   */
  @GenerateSql({ params: [1, 1] })
  async skip(graphId: number, seq: number): Promise<boolean> {
    const head = await this.db
      .selectFrom('graphs')
      .select(['applied_seq', 'stalled_seq'])
      .where('graph_id', '=', graphId)
      .forUpdate()
      .executeTakeFirst();
    if (!head || head.stalled_seq !== seq || head.applied_seq !== seq - 1) return false;
    await this.db
      .deleteFrom('inbox')
      .where('graph_id', '=', graphId)
      .where('seq', '=', seq)
      .execute();
    const key = await this.db
      .deleteFrom('event_keys')
      .where('graph_id', '=', graphId)
      .where('seq', '=', seq)
      .returning('bytes')
      .executeTakeFirst();
    // Through negative seqs, so that no intermediate row collides with the primary key.
    await sql`update inbox set seq = -seq where graph_id = ${graphId} and seq > ${seq}`.execute(
      this.db,
    );
    await sql`update inbox set seq = -seq - 1 where graph_id = ${graphId} and seq < 0`.execute(
      this.db,
    );
    await sql`update event_keys set seq = seq - 1 where graph_id = ${graphId} and seq > ${seq}`.execute(
      this.db,
    );
    await this.db
      .updateTable('graphs')
      .set((eb) => ({
        ingested_seq: eb('ingested_seq', '-', 1),
        stored_bytes: eb('stored_bytes', '-', key?.bytes ?? 0),
        stalled_seq: null,
        stalled_error: null,
        stalled_at: null,
      }))
      .where('graph_id', '=', graphId)
      .execute();
    return true;
  }
}
