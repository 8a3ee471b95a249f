import { Kysely, sql } from 'kysely';

/**
 * Tags every stored node record with the version of its shape (`rec.v`). Rows from before the tag
 * have version 1's fields (the 0 -> 1 upgrade is the identity), so they are tagged 1 as they
 * are. A later change of NodeRecord adds its upgrade step in libs/domain (node-record-version.ts)
 * and, to rewrite old rows for good, a migration like this one applying it in SQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update node_versions set rec = jsonb_set(rec, '{v}', '1') where not rec ? 'v'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update node_versions set rec = rec - 'v' where rec ->> 'v' = '1'`.execute(db);
}
