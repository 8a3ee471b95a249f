import { Kysely, sql } from 'kysely';

/**
 * Webhooks (docs/api-reference.md, "Webhooks"): an account's endpoints, one delivery per notice
 * and matching endpoint, and every attempt of a delivery. `notices.dispatched` marks the notices
 * the dispatcher has turned into deliveries; the partial index finds the others.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table notices add column dispatched boolean not null default false`.execute(db);
  await sql`create index notices_undispatched on notices (notice_no) where not dispatched`.execute(
    db,
  );
  await sql`create table webhook_endpoints (
    endpoint_id text primary key,
    account_id bigint not null references accounts (account_id),
    url text not null,
    types text[],
    graph_keys text[],
    secret text not null,
    previous_secret text,
    previous_secret_until bigint,
    disabled bigint,
    disabled_reason text,
    failing_since bigint,
    created bigint not null
  )`.execute(db);
  await sql`create index webhook_endpoints_by_account on webhook_endpoints (account_id, created)`.execute(
    db,
  );
  await sql`create table webhook_deliveries (
    delivery_id bigserial primary key,
    endpoint_id text not null references webhook_endpoints (endpoint_id) on delete cascade,
    notice_no bigint,
    notice_id text not null,
    body text not null,
    status text not null default 'pending',
    attempts integer not null default 0,
    next_attempt bigint not null,
    lease_until bigint,
    created bigint not null,
    finished bigint
  )`.execute(db);
  await sql`create unique index webhook_deliveries_once on webhook_deliveries (endpoint_id, notice_no)`.execute(
    db,
  );
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt) where status = 'pending'`.execute(
    db,
  );
  await sql`create index webhook_deliveries_finished on webhook_deliveries (finished) where status <> 'pending'`.execute(
    db,
  );
  await sql`create table webhook_attempts (
    delivery_id bigint not null references webhook_deliveries (delivery_id) on delete cascade,
    attempt_no integer not null,
    started bigint not null,
    duration_ms integer not null,
    status_code integer,
    error text,
    primary key (delivery_id, attempt_no)
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').ifExists().execute();
  await db.schema.dropTable('webhook_deliveries').ifExists().execute();
  await db.schema.dropTable('webhook_endpoints').ifExists().execute();
  await sql`drop index if exists notices_undispatched`.execute(db);
  await sql`alter table notices drop column if exists dispatched`.execute(db);
}
