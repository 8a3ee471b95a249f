import { Kysely } from 'kysely';

/** The ref of each node's session, so ingest can check that agent refs extend it. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('node_refs').addColumn('session_ref', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('node_refs').dropColumn('session_ref').execute();
}
