import { Kysely, sql } from 'kysely';

/**
 * Every graph-scoped table leads with graph_id, the distribution column under Citus
 * (docs/architecture.md). accounts, api_keys and graph_directory are small, account-scoped
 * tables: Citus reference tables.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('secret', 'restricted')`))
    .addColumn('hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('masked', 'text', (c) => c.notNull())
    .addColumn('graph_keys', sql`text[]`)
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('revoked', 'bigint')
    .execute();
  await db.schema
    .createIndex('api_keys_account')
    .on('api_keys')
    .columns(['account_id', 'created'])
    .execute();

  await db.schema
    .createTable('graph_directory')
    .addColumn('graph_key', 'text', (c) => c.primaryKey())
    .addColumn('graph_id', 'bigint', (c) => c.notNull().unique().generatedAlwaysAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.account_id'))
    .execute();

  await db.schema
    .createTable('graphs')
    .addColumn('graph_id', 'bigint', (c) => c.primaryKey())
    .addColumn('graph_key', 'text', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) =>
      c.notNull().check(sql`source in ('watch', 'paste', 'upload')`),
    )
    .addColumn('created', 'bigint', (c) => c.notNull())
    // ingest side: last sequence number handed out to a stored (inbox) event
    .addColumn('ingested_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    // apply side: last applied event, the retained range and the counts after the last event
    .addColumn('applied_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('first_seq', 'bigint')
    .addColumn('last_event', 'bigint')
    .addColumn('counts', 'jsonb')
    .addColumn('trimmed_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('graphs_account_activity')
    .on('graphs')
    .expression(sql`account_id, last_event desc nulls last, graph_key`)
    .execute();

  // Stored, not yet applied events; seq is the event's final sequence number.
  await db.schema
    .createTable('inbox')
    .addColumn('graph_id', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('body', 'jsonb', (c) => c.notNull())
    .addColumn('received', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('inbox_pk', ['graph_id', 'seq'])
    .execute();

  // Idempotency keys outlive retention: a retried key stays a duplicate after its event is trimmed.
  await db.schema
    .createTable('event_keys')
    .addColumn('graph_id', 'bigint', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_keys_pk', ['graph_id', 'key'])
    .execute();

  // Which refs exist and which have ended, as of everything stored: validates batches at ingest.
  await db.schema
    .createTable('node_refs')
    .addColumn('graph_id', 'bigint', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('ended', 'boolean', (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint('node_refs_pk', ['graph_id', 'ref'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('graph_id', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('node_no', 'integer', (c) => c.notNull())
    .addColumn('source', 'jsonb', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('changes', 'jsonb', (c) => c.notNull())
    .addColumn('counts', 'jsonb', (c) => c.notNull())
    .addColumn('applied', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('events_pk', ['graph_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('events_by_time')
    .on('events')
    .columns(['graph_id', 'created', 'seq'])
    .execute();

  // One row per node per change, valid from valid_from until the node's next version.
  await db.schema
    .createTable('node_versions')
    .addColumn('graph_id', 'bigint', (c) => c.notNull())
    .addColumn('node_no', 'integer', (c) => c.notNull())
    .addColumn('valid_from', 'bigint', (c) => c.notNull())
    .addColumn('sort_key', sql`text collate "C"`, (c) => c.notNull())
    .addColumn('parent_no', 'integer')
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('last_event', 'bigint', (c) => c.notNull())
    .addColumn('rec', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('node_versions_pk', ['graph_id', 'node_no', 'valid_from'])
    .execute();
  await db.schema
    .createIndex('node_versions_tree')
    .on('node_versions')
    .columns(['graph_id', 'sort_key', 'valid_from'])
    .execute();
  await db.schema
    .createIndex('node_versions_children')
    .on('node_versions')
    .columns(['graph_id', 'parent_no', 'node_no', 'valid_from'])
    .execute();
  await db.schema
    .createIndex('node_versions_working')
    .on('node_versions')
    .columns(['graph_id', 'last_event'])
    .where(sql.ref('state'), '=', 'working')
    .execute();

  await db.schema
    .createTable('task_snapshots')
    .addColumn('graph_id', 'bigint', (c) => c.notNull())
    .addColumn('node_no', 'integer', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('tasks', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('task_snapshots_pk', ['graph_id', 'node_no', 'seq'])
    .execute();

  await db.schema
    .createTable('spawns')
    .addColumn('graph_id', 'bigint', (c) => c.notNull())
    .addColumn('requester_no', 'integer', (c) => c.notNull())
    .addColumn('child_no', 'integer', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('spawn_call_id', 'text')
    .addColumn('agent_type', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('background', 'boolean', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('spawns_pk', ['graph_id', 'requester_no', 'child_no'])
    .execute();

  await db.schema
    .createTable('waits')
    .addColumn('graph_id', 'bigint', (c) => c.notNull())
    .addColumn('node_no', 'integer', (c) => c.notNull())
    .addColumn('on_no', 'integer', (c) => c.notNull())
    .addColumn('started_seq', 'bigint', (c) => c.notNull())
    .addColumn('started', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('ended_seq', 'bigint')
    .addColumn('ended', 'bigint')
    .addPrimaryKeyConstraint('waits_pk', ['graph_id', 'node_no', 'started_seq', 'on_no'])
    .execute();
  await db.schema
    .createIndex('waits_open')
    .on('waits')
    .columns(['graph_id', 'node_no'])
    .where(sql.ref('ended_seq'), 'is', null)
    .execute();

  await db.schema
    .createTable('messages')
    .addColumn('graph_id', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('from_no', 'integer', (c) => c.notNull())
    .addColumn('to_no', 'integer', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('messages_pk', ['graph_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('messages_from')
    .on('messages')
    .columns(['graph_id', 'from_no', 'seq'])
    .execute();
  await db.schema
    .createIndex('messages_to')
    .on('messages')
    .columns(['graph_id', 'to_no', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'messages',
    'waits',
    'spawns',
    'task_snapshots',
    'node_versions',
    'events',
    'node_refs',
    'event_keys',
    'inbox',
    'graphs',
    'graph_directory',
    'api_keys',
    'accounts',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
