import { Kysely, sql } from 'kysely';

/** A Node's `usage` and `descendant_usage` before any `usage.reported` event. */
const FIELDS = ',"usage":null,"descendant_usage":null}';

/**
 * Usage (issue 31): every stored Node JSON gains `usage` and `descendant_usage`, its last fields,
 * null (nothing was reported before). Records stored as jsonb (`rec`, before 0009) are upgraded
 * as they are read (NODE_RECORD_UPGRADES 1 -> 2); graph and event counts without `usage` read as
 * none. A JSON string never holds an unescaped `"`, so the key test finds only the field itself.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update node_versions
    set public_json = left(public_json, -1) || ${FIELDS}
    where public_json is not null and strpos(public_json, '"descendant_usage":') = 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update node_versions
    set public_json = left(public_json, strpos(public_json, ',"usage":') - 1) || '}'
    where strpos(public_json, ',"usage":') > 0`.execute(db);
}
