import { sql } from 'kysely';
import type { Db } from '@graph-history/db';

/**
 * The baseline's rows (bench/api-baseline-server.ts): each node version as a jsonb of a node's
 * size, keyed as node_versions: each version's stored JSON (`public_json`) as jsonb. Built once
 * per bench database (a reseed recreates the database).
 */
export async function ensureBaselineRows(db: Db): Promise<void> {
  const found = await sql<{ t: string | null }>`
    select to_regclass('bench_baseline_rows')::text as t`.execute(db);
  if (found.rows[0]?.t) return;
  await sql`create table bench_baseline_rows as
    select graph_id, node_no, valid_from, public_json::jsonb as doc
    from node_versions`.execute(db);
  await sql`alter table bench_baseline_rows
    add primary key (graph_id, node_no, valid_from)`.execute(db);
  await sql`vacuum (analyze) bench_baseline_rows`.execute(db);
}

/** Average size of the baseline's jsonb as text. */
export async function averageBaselineBytes(db: Db): Promise<number> {
  const r = await sql<{ bytes: number }>`
    select avg(octet_length(doc::text))::int as bytes from bench_baseline_rows`.execute(db);
  return r.rows[0]!.bytes;
}
