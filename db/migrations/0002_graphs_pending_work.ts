import { Kysely, sql } from 'kysely';

/**
 * The ingestor's sweeper asks every second which graphs still have stored-but-unapplied events or
 * a retention cut not yet trimmed. This partial index holds only those graphs, so the question
 * costs nothing however many idle graphs exist.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('graphs_pending_work')
    .on('graphs')
    .column('graph_id')
    .where(sql<boolean>`applied_seq < ingested_seq or trimmed_seq < first_seq`)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('graphs_pending_work').ifExists().execute();
}
