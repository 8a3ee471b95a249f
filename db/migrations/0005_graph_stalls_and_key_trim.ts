import { Kysely, sql } from 'kysely';

/**
 * A graph whose next stored event the reducer refuses at apply time is quarantined instead of
 * retried for ever: `stalled_seq` is that event, `stalled_error` why, `stalled_at` since when.
 * The apply path and the sweeper leave such a graph alone until an operator skips or retries the
 * event (`graph-history stalled …`). The partial index keeps "which graphs are stalled" cheap.
 * Also: an index of idempotency keys by seq, for the trim job's cap on them.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('graphs')
    .addColumn('stalled_seq', 'bigint')
    .addColumn('stalled_error', 'text')
    .addColumn('stalled_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('graphs_stalled')
    .on('graphs')
    .column('graph_id')
    .where(sql<boolean>`stalled_seq is not null`)
    .execute();
  // The trim job deletes the idempotency keys of old events by seq (a documented cap).
  await db.schema
    .createIndex('event_keys_seq')
    .on('event_keys')
    .columns(['graph_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('event_keys_seq').ifExists().execute();
  await db.schema.dropIndex('graphs_stalled').ifExists().execute();
  await db.schema
    .alterTable('graphs')
    .dropColumn('stalled_seq')
    .dropColumn('stalled_error')
    .dropColumn('stalled_at')
    .execute();
}
