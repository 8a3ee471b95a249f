import {
  fromStoredNodeRecord,
  presentEvent,
  storedNodeJson,
  useIdKey,
  type ChangeEntry,
  type EventSource,
  type StoredNodeRecord,
} from '@graph-history/domain';
import { Kysely, sql } from 'kysely';

/** Rows read and rewritten per statement. */
const BATCH = 1_000;

/**
 * One stored shape: every event and node version is its read API JSON (`public_json`, 0008), and
 * a version also its `created_seq` (0009). Rows written before 0009 still hold their content as
 * jsonb (`events.source`, `payload`, `changes`; `node_versions.rec`), and before 0008 only so:
 * they get the JSON and `created_seq` the apply writes today, made from that jsonb by the code
 * that presented it to reads (presentEvent, presentNode through storedNodeJson), in batches; a
 * row that already has its JSON keeps it (reads sent it). Then the jsonb columns go and both
 * JSON columns become not null.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const stored = await sql<{ key: Buffer }>`select key from id_key`.execute(db);
  useIdKey(stored.rows[0]!.key);
  await rewriteEvents(db);
  await rewriteNodeVersions(db);
  await sql`alter table events drop column source, drop column payload, drop column changes,
    alter column public_json set not null`.execute(db);
  await sql`alter table node_versions drop column rec,
    alter column public_json set not null, alter column created_seq set not null`.execute(db);
}

async function rewriteEvents(db: Kysely<any>): Promise<void> {
  let after: [number, number] = [0, 0];
  for (;;) {
    const { rows } = await sql<{
      graph_id: number;
      seq: number;
      type: string;
      created: number;
      node_no: number;
      source: EventSource;
      payload: Record<string, unknown>;
      changes: ChangeEntry[];
      public_json: string | null;
    }>`select graph_id, seq, type, created, node_no, source, payload, changes, public_json
        from events
        where (graph_id, seq) > (${after[0]}, ${after[1]}) and source is not null
        order by graph_id, seq limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    const json = rows.map(
      (r) =>
        r.public_json ??
        JSON.stringify(
          presentEvent(Number(r.graph_id), '', {
            seq: Number(r.seq),
            type: r.type,
            created: Number(r.created),
            nodeNo: r.node_no,
            source: r.source,
            payload: r.payload,
            changes: r.changes,
          }),
        ),
    );
    await sql`update events e set public_json = v.j
      from unnest(${rows.map((r) => r.graph_id)}::bigint[], ${rows.map((r) => r.seq)}::bigint[],
        ${json}::text[]) as v(g, s, j)
      where e.graph_id = v.g and e.seq = v.s`.execute(db);
    const last = rows[rows.length - 1]!;
    after = [Number(last.graph_id), Number(last.seq)];
  }
}

async function rewriteNodeVersions(db: Kysely<any>): Promise<void> {
  let after: [number, number, number] = [0, 0, -1];
  for (;;) {
    const { rows } = await sql<{
      graph_id: number;
      node_no: number;
      valid_from: number;
      rec: StoredNodeRecord;
      public_json: string | null;
    }>`select graph_id, node_no, valid_from, rec, public_json from node_versions
        where (graph_id, node_no, valid_from) > (${after[0]}, ${after[1]}, ${after[2]})
          and rec is not null
        order by graph_id, node_no, valid_from limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    const records = rows.map((r) => fromStoredNodeRecord(r.rec));
    const json = rows.map(
      (r, i) => r.public_json ?? storedNodeJson(Number(r.graph_id), records[i]!),
    );
    await sql`update node_versions nv set public_json = v.j, created_seq = v.c
      from unnest(${rows.map((r) => r.graph_id)}::bigint[], ${rows.map((r) => r.node_no)}::int[],
        ${rows.map((r) => r.valid_from)}::bigint[], ${json}::text[],
        ${records.map((r) => r.createdSeq)}::bigint[]) as v(g, n, f, j, c)
      where nv.graph_id = v.g and nv.node_no = v.n and nv.valid_from = v.f`.execute(db);
    const last = rows[rows.length - 1]!;
    after = [Number(last.graph_id), Number(last.node_no), Number(last.valid_from)];
  }
}

/**
 * The columns come back, empty and nullable: every row keeps its JSON, which the code of
 * 0009–0016 reads as it reads the rows it wrote itself.
 */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table node_versions add column rec jsonb,
    alter column public_json drop not null, alter column created_seq drop not null`.execute(db);
  await sql`alter table events add column source jsonb, add column payload jsonb,
    add column changes jsonb, alter column public_json drop not null`.execute(db);
}
