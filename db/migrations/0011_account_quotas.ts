import { Kysely, sql } from 'kysely';

/**
 * Per-account quotas (docs/api-reference.md, "Quotas"): `account_quotas` holds an account's
 * overrides of the deployment's defaults (null: the default), events per second included for the
 * ingest limiter. `graphs.stored_bytes` is what the graph's held events weigh: each event's JSON
 * size is kept on its idempotency key row (`event_keys.bytes`); the ingest append adds a batch's
 * sizes, the trim subtracts those of the events it deletes. Events stored before this migration
 * are counted by the JSON the database holds for them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_quotas')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.account_id'))
    .addColumn('max_graphs', 'bigint')
    .addColumn('max_bytes', 'bigint')
    .addColumn('events_per_second', 'integer')
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  // an account's graph count (the graphs quota) without a fan-out: the directory is a reference table
  await db.schema
    .createIndex('graph_directory_account')
    .on('graph_directory')
    .column('account_id')
    .execute();
  await sql`alter table graphs add column stored_bytes bigint not null default 0`.execute(db);
  await sql`alter table event_keys add column bytes integer not null default 0`.execute(db);
  await sql`update event_keys k set bytes = octet_length(i.body::text)
    from inbox i where i.graph_id = k.graph_id and i.seq = k.seq`.execute(db);
  await sql`update event_keys k
    set bytes = octet_length(coalesce(e.public_json, e.payload::text, ''))
    from events e where e.graph_id = k.graph_id and e.seq = k.seq`.execute(db);
  await sql`update graphs g set stored_bytes = s.bytes
    from (select graph_id, sum(bytes) as bytes from event_keys group by graph_id) s
    where s.graph_id = g.graph_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table event_keys drop column bytes`.execute(db);
  await sql`alter table graphs drop column stored_bytes`.execute(db);
  await db.schema.dropIndex('graph_directory_account').ifExists().execute();
  await db.schema.dropTable('account_quotas').ifExists().execute();
}
