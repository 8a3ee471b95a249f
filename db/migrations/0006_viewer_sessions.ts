import { Kysely } from 'kysely';

/**
 * Browser sessions of the viewer: a signed-in key, found by the hash of the cookie's token (the
 * token itself is never stored). A session ends at `expires`, on sign-out, or when its key is
 * revoked.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('viewer_sessions')
    .addColumn('token_hash', 'bytea', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.key_id'))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('viewer_sessions_expires')
    .on('viewer_sessions')
    .column('expires')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('viewer_sessions').execute();
}
