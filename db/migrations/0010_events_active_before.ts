import { Kysely, sql } from 'kysely';

/**
 * Each event written by the apply keeps how many nodes were working and not stale just before it
 * (as of the previous event, judged at this event's `created`, with `stale_after_ms` as the
 * threshold): a graph read as of the previous event counts its stale nodes from it instead of
 * scanning the versions of the window. Older rows keep both null and are scanned as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events add column active_before int, add column stale_after_ms bigint`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table events drop column active_before, drop column stale_after_ms`.execute(db);
}
