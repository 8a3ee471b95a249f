import { Kysely, sql } from 'kysely';

/**
 * Each version row knows where its validity ends: `superseded_seq` is the `valid_from` of the
 * node's next version (null while it is the current one). "The node as of s" is then
 * `valid_from <= s and (superseded_seq is null or superseded_seq > s)`, one index probe instead of
 * an anti-join per row. The partial index of working versions carries both bounds, so the count of
 * nodes working at a past moment is an index-only range scan.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table node_versions add column superseded_seq bigint`.execute(db);
  await sql`update node_versions v set superseded_seq = n.next
    from (select graph_id, node_no, valid_from,
                 lead(valid_from) over (partition by graph_id, node_no order by valid_from) as next
          from node_versions) n
    where v.graph_id = n.graph_id and v.node_no = n.node_no and v.valid_from = n.valid_from
      and n.next is not null`.execute(db);
  await sql`drop index node_versions_working`.execute(db);
  await sql`create index node_versions_working on node_versions (graph_id, last_event)
    include (valid_from, superseded_seq) where state = 'working'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index node_versions_working`.execute(db);
  await sql`create index node_versions_working on node_versions (graph_id, last_event)
    where state = 'working'`.execute(db);
  await sql`alter table node_versions drop column superseded_seq`.execute(db);
}
