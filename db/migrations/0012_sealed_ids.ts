import { randomBytes } from 'node:crypto';
import {
  ID_KEY_BYTES,
  sealChangeIds,
  sealStoredJsonIds,
  useIdKey,
  type ChangeEntry,
} from '@graph-history/domain';
import { Kysely, sql } from 'kysely';

/** Rows read and rewritten per statement. */
const BATCH = 1_000;

/**
 * Ids become opaque (libs/domain ids.ts): `id_key` holds the key they are sealed with, made here
 * once (random) and the same for every process ever after (`loadIdKey`). Ids stored inside the
 * JSON of events and node versions (their own ids, parent_id, root_id, session_id,
 * requested_by_id, blocked.on_ids, changes' node_id) are rewritten in the sealed form, in
 * batches, so every answer shows one id per object; ids of the older form are still accepted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table if not exists id_key (
    id smallint primary key default 1 check (id = 1),
    key bytea not null check (length(key) = ${sql.lit(ID_KEY_BYTES)})
  )`.execute(db);
  await sql`insert into id_key (key) values (${randomBytes(ID_KEY_BYTES)})
            on conflict (id) do nothing`.execute(db);
  const stored = await sql<{ key: Buffer }>`select key from id_key`.execute(db);
  useIdKey(stored.rows[0]!.key);
  await resealStoredIds(db);
}

/** Rewrites the ids of the readable form stored in events and node versions (loaded key). */
export async function resealStoredIds(db: Kysely<any>): Promise<void> {
  await resealEvents(db);
  await resealNodeVersions(db);
}

async function resealEvents(db: Kysely<any>): Promise<void> {
  let after: [number, number] = [0, 0];
  for (;;) {
    const { rows } = await sql<{
      graph_id: number;
      seq: number;
      public_json: string | null;
      changes: ChangeEntry[] | null;
    }>`select graph_id, seq, public_json, changes from events
        where (graph_id, seq) > (${after[0]}, ${after[1]})
        order by graph_id, seq limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    const g: number[] = [];
    const s: number[] = [];
    const json: (string | null)[] = [];
    const changes: (string | null)[] = [];
    for (const r of rows) {
      const j = r.public_json === null ? null : sealStoredJsonIds('event', r.public_json);
      const c = r.changes === null ? null : JSON.stringify(sealChangeIds(r.changes));
      if (j === null && c === null) continue;
      g.push(r.graph_id);
      s.push(r.seq);
      json.push(j);
      changes.push(c);
    }
    if (g.length > 0)
      await sql`update events e set public_json = coalesce(v.j, e.public_json),
                  changes = coalesce(v.c::jsonb, e.changes)
                from unnest(${g}::bigint[], ${s}::bigint[], ${json}::text[], ${changes}::text[])
                  as v(g, s, j, c)
                where e.graph_id = v.g and e.seq = v.s`.execute(db);
    const last = rows[rows.length - 1]!;
    after = [Number(last.graph_id), Number(last.seq)];
  }
}

async function resealNodeVersions(db: Kysely<any>): Promise<void> {
  let after: [number, number, number] = [0, 0, -1];
  for (;;) {
    const { rows } = await sql<{
      graph_id: number;
      node_no: number;
      valid_from: number;
      public_json: string;
    }>`select graph_id, node_no, valid_from, public_json from node_versions
        where (graph_id, node_no, valid_from) > (${after[0]}, ${after[1]}, ${after[2]})
        order by graph_id, node_no, valid_from limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    const g: number[] = [];
    const n: number[] = [];
    const v: number[] = [];
    const json: string[] = [];
    for (const r of rows) {
      const j = r.public_json === null ? null : sealStoredJsonIds('node', r.public_json);
      if (j === null) continue;
      g.push(r.graph_id);
      n.push(r.node_no);
      v.push(r.valid_from);
      json.push(j);
    }
    if (g.length > 0)
      await sql`update node_versions nv set public_json = v.j
                from unnest(${g}::bigint[], ${n}::int[], ${v}::bigint[], ${json}::text[])
                  as v(g, n, f, j)
                where nv.graph_id = v.g and nv.node_no = v.n and nv.valid_from = v.f`.execute(db);
    const last = rows[rows.length - 1]!;
    after = [Number(last.graph_id), Number(last.node_no), Number(last.valid_from)];
  }
}

/**
 * Nothing: stored ids stay sealed (both forms are accepted), so the key outlives a rollback and a
 * later `up` keeps it rather than making one that could not open them.
 */
export async function down(): Promise<void> {}
