import { sql } from 'kysely';
import {
  applyEvent,
  createGraphState,
  toStoredNodeRecord,
  type WatchEvent,
} from '@graph-history/domain';
import type { Db } from '@graph-history/db';

/**
 * Gives the stored rows of a graph seeded from `events` the jsonb columns the apply wrote before
 * migration 0009 (version `rec`, event `source`, `payload`, `changes`; a version had no
 * `created_seq`), from a replay of the reducer (not from the stored JSON): rows `pick` selects by
 * (node number or 0 for an event, seq). The columns must exist: migration 0017's `down` brings
 * them back.
 */
export async function writeRowsAsBefore0009(
  db: Db,
  graphId: number,
  events: WatchEvent[],
  pick: (nodeNo: number, seq: number) => boolean,
): Promise<void> {
  const state = createGraphState(graphId);
  const versions = { nodeNos: [] as number[], seqs: [] as number[], recs: [] as string[] };
  const rows = { seqs: [] as number[], source: [] as string[], payload: [] as string[] };
  const changes: string[] = [];
  events.forEach((watched, i) => {
    const { event: e, versions: written } = applyEvent(state, watched, i + 1);
    for (const v of written.filter((v) => pick(v.no, e.seq))) {
      versions.nodeNos.push(v.no);
      versions.seqs.push(e.seq);
      versions.recs.push(JSON.stringify(toStoredNodeRecord(v)));
    }
    if (!pick(0, e.seq)) return;
    rows.seqs.push(e.seq);
    rows.source.push(JSON.stringify(e.source));
    rows.payload.push(JSON.stringify(e.payload));
    changes.push(JSON.stringify(e.changes));
  });
  await sql`update node_versions v set rec = x.rec::jsonb, created_seq = null
    from unnest(${versions.nodeNos}::int[], ${versions.seqs}::bigint[], ${versions.recs}::text[])
      as x(node_no, valid_from, rec)
    where v.graph_id = ${graphId} and v.node_no = x.node_no and v.valid_from = x.valid_from`.execute(
    db,
  );
  await sql`update events e
    set source = x.source::jsonb, payload = x.payload::jsonb, changes = x.changes::jsonb
    from unnest(${rows.seqs}::bigint[], ${rows.source}::text[], ${rows.payload}::text[],
      ${changes}::text[]) as x(seq, source, payload, changes)
    where e.graph_id = ${graphId} and e.seq = x.seq`.execute(db);
}
