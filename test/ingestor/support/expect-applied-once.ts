import { applyEvent, createGraphState, WatchEvent } from '@graph-history/domain';
import { Db, GraphStateRepository } from '@graph-history/db';
import { sql } from 'kysely';

/**
 * Asserts that `events` were stored once each, at the seq of their position, and applied once
 * each: retained event rows in order, and a graph (counts, last_event, every node's newest
 * version) equal to the reducer run locally over the same events, and every version row ending
 * where the node's next version starts.
 */
export async function expectAppliedOnce(
  db: Db,
  graphKey: string,
  events: WatchEvent[],
): Promise<void> {
  const g = await db
    .selectFrom('graphs')
    .selectAll()
    .where('graph_key', '=', graphKey)
    .executeTakeFirstOrThrow();
  expect(g).toMatchObject({ ingested_seq: events.length, applied_seq: events.length });
  const keys = await db
    .selectFrom('event_keys')
    .select(['key', 'seq'])
    .where('graph_id', '=', g.graph_id)
    .orderBy('seq')
    .execute();
  expect(keys.map((k) => k.key)).toEqual(events.map((e) => e.key));
  expect(keys.map((k) => k.seq)).toEqual(events.map((_, i) => i + 1));
  const stored = await db
    .selectFrom('events')
    .select(['seq', 'key'])
    .where('graph_id', '=', g.graph_id)
    .where('seq', '>=', g.first_seq!)
    .orderBy('seq')
    .execute();
  expect(stored.length).toBe(events.length - g.first_seq! + 1);
  for (const row of stored) expect(row.key).toBe(events[row.seq - 1]!.key);

  const expected = createGraphState(g.graph_id);
  events.forEach((event, i) => applyEvent(expected, event, i + 1));
  expect(g.counts).toEqual(expected.counts);
  expect(g.last_event).toBe(expected.lastCreated);
  const current = await new GraphStateRepository(db).currentRows(g.graph_id);
  expect(current.nodes).toEqual([...expected.nodes.values()].sort((a, b) => a.no - b.no));
  const misplaced = await sql<{ n: number }>`select count(*)::int as n from (
      select superseded_seq,
        lead(valid_from) over (partition by node_no order by valid_from) as next
      from node_versions where graph_id = ${g.graph_id}) v
    where superseded_seq is distinct from next`.execute(db);
  expect(misplaced.rows[0]!.n).toBe(0);
}
