import { Kysely } from 'kysely';

/**
 * The depth of each node, so ingest can refuse a create under a node at the deepest level allowed.
 * Rows stored before keep null: ingest cannot judge creates under them, the reducer still does.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('node_refs').addColumn('depth', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('node_refs').dropColumn('depth').execute();
}
