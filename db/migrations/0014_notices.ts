import { Kysely, sql } from 'kysely';

/**
 * Notices (docs/api-reference.md, "Notices"): what an applied event changed that a person should
 * know, keyed (and distributable) by account. `notice_no` orders an account's notices (cursors,
 * streams, webhook cursors). `seq` is the event that caused it, so the notice can be read as of that moment; `body` is the
 * notice's public JSON, written once. Webhook endpoints and their deliveries live in 0015.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table notices (
    account_id bigint not null references accounts (account_id),
    notice_no bigserial not null,
    graph_id bigint not null,
    node_no integer,
    seq bigint,
    type text not null,
    created bigint not null,
    body text not null,
    primary key (account_id, notice_no)
  )`.execute(db);
  await sql`create index notices_by_graph on notices (account_id, graph_id, notice_no)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notices').ifExists().execute();
}
