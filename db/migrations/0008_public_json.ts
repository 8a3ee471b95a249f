import { Kysely, sql } from 'kysely';

/**
 * The read API's JSON of each event and node version, written by the apply with the rows
 * (storedEventJson, storedNodeJson): pages and node reads send it as it is instead of parsing the
 * jsonb columns and stringifying them again. Text, not jsonb: text keeps the key order and pg
 * hands it over unparsed. Null on rows written before this migration; reads then present the
 * jsonb columns as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events add column public_json text`.execute(db);
  await sql`alter table node_versions add column public_json text`.execute(db);
  // Rows now pass the default 2 KB at which Postgres compresses (pglz) their largest values on
  // every insert and decompresses them on every read: keep rows up to a page inline, as they are.
  await sql`alter table events set (toast_tuple_target = 8160)`.execute(db);
  await sql`alter table node_versions set (toast_tuple_target = 8160)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table node_versions reset (toast_tuple_target)`.execute(db);
  await sql`alter table events reset (toast_tuple_target)`.execute(db);
  await sql`alter table node_versions drop column public_json`.execute(db);
  await sql`alter table events drop column public_json`.execute(db);
}
