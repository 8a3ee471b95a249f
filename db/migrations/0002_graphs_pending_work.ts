import { Kysely, sql } from 'kysely';

/**
 * The ingestor's sweeper asks every second which graphs still have stored-but-unapplied events or
 * a retention cut not yet trimmed. This partial index holds only those graphs, so the question
 * costs nothing however many idle graphs exist.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('graphs_pending_work')
    .on('graphs')
    .column('graph_id')
    .where(sql<boolean>`applied_seq < ingested_seq or trimmed_seq < first_seq`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('graphs_pending_work').ifExists().execute();
}
