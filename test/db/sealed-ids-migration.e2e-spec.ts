import { sql } from 'kysely';
import { decodeId, encodeReadableId, type IdPrefix } from '@graph-history/domain';
import { resealStoredIds } from '../../db/migrations/0012_sealed_ids';
import { down as before0017 } from '../../db/migrations/0017_one_stored_shape';
import { seedGraph } from '../support/seed';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { chattyRun, validRun } from '../ingestor/support/watch-events';

/** Stored JSON as rows written before migration 0012 held it: every id in the readable form. */
const readable = (json: string) =>
  json.replace(/"(node|evt)_([A-Za-z0-9_-]{22})"/g, (whole, prefix: IdPrefix) => {
    const d = decodeId(prefix, whole.slice(1, -1))!;
    return JSON.stringify(encodeReadableId(prefix, d.graphId, d.n));
  });

describe('migration 0012: stored ids rewritten in the sealed form', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('turns readable ids stored in events and node versions into the sealed ones, nothing else', async () => {
    await seedGraph(t.db, { graphKey: 'chatty', events: chattyRun('c', 40) });
    await seedGraph(t.db, { graphKey: 'tree', events: validRun('v', 120) });
    // the columns 0017 dropped come back, empty: 0012 ran before it
    await before0017(t.db);
    const texts = async () => {
      const e = await sql<{ j: string; c: unknown }>`
        select public_json as j, changes as c from events order by graph_id, seq`.execute(t.db);
      const n = await sql<{ j: string }>`
        select public_json as j from node_versions order by graph_id, node_no, valid_from`.execute(
        t.db,
      );
      return { events: e.rows, nodes: n.rows.map((r) => r.j) };
    };
    const sealed = await texts();
    expect(sealed.events.some((e) => e.j.includes('"on_ids":["node_'))).toBe(true);

    // the rows as the apply wrote them before 0012, some with their changes as jsonb (pre-0009)
    await sql`update events set public_json = r.j, changes = r.c::jsonb
      from (select graph_id, seq, public_json as j,
                   case when seq % 3 = 0 then (public_json::jsonb -> 'changes')::text end as c
            from events) r
      where events.graph_id = r.graph_id and events.seq = r.seq`.execute(t.db);
    const rows = await sql<{ graph_id: number; seq: number; j: string; c: string | null }>`
      select graph_id, seq, public_json as j, changes::text as c from events`.execute(t.db);
    for (const r of rows.rows)
      await sql`update events set public_json = ${readable(r.j)},
        changes = ${r.c === null ? null : readable(r.c)}::jsonb
        where graph_id = ${r.graph_id} and seq = ${r.seq}`.execute(t.db);
    const versions = await sql<{
      graph_id: number;
      node_no: number;
      valid_from: number;
      j: string;
    }>`
      select graph_id, node_no, valid_from, public_json as j from node_versions`.execute(t.db);
    for (const r of versions.rows)
      await sql`update node_versions set public_json = ${readable(r.j)}
        where graph_id = ${r.graph_id} and node_no = ${r.node_no} and valid_from = ${r.valid_from}`.execute(
        t.db,
      );
    const old = await texts();
    expect(old.nodes.join('')).toMatch(/"parent_id":"node_[0-9a-z]+"/);
    expect(old.nodes.join('')).not.toMatch(/"node_[A-Za-z0-9_-]{22}"/);

    await resealStoredIds(t.db);
    const after = await texts();
    expect(after.nodes).toEqual(sealed.nodes);
    expect(after.events.map((e) => e.j)).toEqual(sealed.events.map((e) => e.j));
    for (const e of after.events) if (e.c !== null) expect(e.c).toEqual(JSON.parse(e.j).changes);
    expect(after.events.filter((e) => e.c !== null).length).toBeGreaterThan(10);
  });
});
