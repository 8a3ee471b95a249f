import { Kysely, sql } from 'kysely';

/**
 * Each node version and event is written once, as its read API JSON (`public_json`, 0008): the
 * apply stops writing the same content a second time as jsonb. A version row keeps `rec` null and
 * gets `created_seq`, the one field of the reducer's record its public JSON lacks; an event row
 * keeps `source`, `payload` and `changes` null. Reads rebuild both from the JSON (libs/domain,
 * stored-json). Older rows keep their jsonb and are read from it as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table node_versions add column created_seq bigint,
    alter column rec drop not null`.execute(db);
  await sql`alter table events alter column source drop not null,
    alter column payload drop not null, alter column changes drop not null`.execute(db);
}

/** Fails (not null) once rows written only as JSON exist: they cannot go back without a rebuild. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table events alter column source set not null,
    alter column payload set not null, alter column changes set not null`.execute(db);
  await sql`alter table node_versions alter column rec set not null,
    drop column created_seq`.execute(db);
}
