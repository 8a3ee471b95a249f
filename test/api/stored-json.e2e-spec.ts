import { sql } from 'kysely';
import type { WatchEvent } from '@graph-history/domain';
import { simulate } from '@graph-history/simulator';
import { ApiHarness } from './support/api-harness';
import { EventScript } from './support/watch-events';
import { writeRowsAsBefore0009 } from './support/rows-before-0009';

type Answer = { status: number; body: string; etag?: string; type?: string };

/**
 * Pages and node reads are sent from the JSON the apply stored (`public_json`), and records are
 * rebuilt from it (rows of migration 0009 on hold nothing else); rows without it (written before
 * migration 0008) are presented from their jsonb columns, rows of 0008 have both. All must give
 * the same bytes, the same ETag and the same content type, also on pages that mix the kinds.
 */
describe('read API: stored JSON', () => {
  let h: ApiHarness;
  let urls: string[];
  const seeded: { graphId: number; events: WatchEvent[] }[] = [];

  beforeAll(async () => {
    // page costs and concurrency out of the way: the comparison sends many pages
    h = await ApiHarness.start({
      RATE_LIMIT_PER_SECOND: '1000000000',
      RATE_LIMIT_BURST: '1000000000',
      ACCOUNT_CONCURRENCY: '1000000',
    });
    const [sim] = simulate({ graphs: 1, events: 700, seed: 'stored-json', graphKeyPrefix: 'sj' });
    seeded.push({ ...(await h.seed(sim!.graphKey, sim!.events)), events: sim!.events });
    // attention (an object with a key order of its own), messages, a wait, a recent working node
    const s = new EventScript(Date.now() - 20 * 60_000);
    s.session('s')
      .agent('s/a', 's')
      .attention('s/a', 'question', 'Which one? "A" or \\B\\ – ünïcödé')
      .agent('s/b', 's')
      .message('s/a', 's/b', 'hi')
      .waitStarted('s/a', ['s/b'], 'waiting')
      .tasks('s/b', [{ content: 'x', status: 'in_progress' }]);
    s.time = Date.now() - 1_000;
    s.activity('s/b');
    seeded.push({ ...(await h.seed('script', s.events)), events: s.events });
    urls = [];
    for (const g of ['sj-1', 'script']) {
      const base = `/api/v1/graphs/gph_${g}`;
      const events = (await h.get(`${base}/events?order=asc&limit=1000`)).json.data as {
        id: string;
        created: number;
      }[];
      const nodes = (await h.get(`${base}/nodes?limit=1000`)).json.data as { id: string }[];
      const midEvent = events[Math.floor(events.length / 2)]!;
      const mid = midEvent.id;
      const { created } = midEvent;
      const early = events[Math.min(3, events.length - 1)]!.id;
      urls.push(
        `${base}/events?limit=1000&expand[]=data.node`,
        `${base}/events?order=asc&limit=1000&expand[]=data.node&as_of=${mid}`,
        `${base}/events?limit=7&expand[]=data.node&starting_after=${mid}`,
        `${base}/events?limit=7&expand[]=data.node&ending_before=${early}`,
        `${base}/events?limit=1000`,
        `${base}/events?order=asc&as_of=${mid}`,
        `${base}/events?limit=3&expand[]=data.node.parent`,
        `${base}/nodes?limit=1000`,
        `${base}/nodes?limit=1000&order=tree&as_of=${mid}`,
        `${base}/nodes?ancestor_id=${nodes[0]!.id}&order=tree&limit=1000`,
        `${base}/nodes?state=working&limit=5&starting_after=${nodes[0]!.id}`,
        `${base}/nodes?limit=5&expand[]=data.parent`,
      );
      for (const n of nodes.slice(0, 15)) {
        urls.push(`${base}/nodes/${n.id}`, `${base}/nodes/${n.id}?as_of=${mid}`);
        urls.push(`${base}/nodes/${n.id}?as_of=${early}`, `${base}/nodes/${n.id}?expand[]=parent`);
        // a time: the node is looked up again at the event it names
        urls.push(`${base}/nodes/${n.id}?as_of=${created + 1}`);
      }
    }
  }, 120_000);
  afterAll(() => h.stop());

  const answers = async (): Promise<Answer[]> =>
    Promise.all(
      urls.map(async (u) => {
        const r = await h.get(u);
        return {
          status: r.status,
          body: r.body,
          etag: r.headers.etag,
          type: r.headers['content-type'],
        };
      }),
    );
  /** Gives every row, or every other one, the jsonb columns written before migration 0009. */
  const withJsonb = async (half: boolean) => {
    for (const { graphId, events } of seeded)
      await writeRowsAsBefore0009(
        h.t.db,
        graphId,
        events,
        (no, seq) => !half || (no + seq) % 2 === 0,
      );
  };
  /** Drops the stored JSON of every row, or of every other one. */
  const withoutJson = async (half: boolean) => {
    const every = sql.raw(half ? '2' : '1');
    await sql`update events set public_json = null where seq % ${every} = 0`.execute(h.t.db);
    await sql`update node_versions set public_json = null
      where (node_no + valid_from) % ${every} = 0`.execute(h.t.db);
  };

  it('sends the same bytes, ETags and content type from the stored JSON as from the rows', async () => {
    // the apply writes each version and event once, as JSON
    const stored = await sql<{ n: number }>`select
      (select count(*) from node_versions
        where public_json is null or rec is not null or created_seq is null)
      + (select count(*) from events where public_json is null
        or source is not null or payload is not null or changes is not null) as n`.execute(h.t.db);
    expect(Number(stored.rows[0]!.n)).toBe(0);
    const fromJson = await answers();
    const bodies = fromJson.map((a) => a.body).join('\n');
    // the cases that splice: stale both ways, nodes missing at an event, attention, tasks
    expect(bodies).toContain('"stale":true');
    expect(bodies).toContain('"stale":false');
    expect(bodies).toContain('"attention":{');
    expect(bodies).toContain('"data":{"node":{');
    // nodes read before they exist answer 404 node_not_yet_created, alike on both paths
    expect(fromJson.filter((a) => a.type !== 'application/json; charset=utf-8')).toEqual([]);
    expect(fromJson.filter((a) => a.status === 200).length).toBeGreaterThan(urls.length * 0.8);
    // half the rows also with their jsonb columns (as 0008 wrote them), then only with those
    // (as before 0008): pages mix the kinds
    await withJsonb(true);
    expect(await answers()).toEqual(fromJson);
    await withoutJson(true);
    expect(await answers()).toEqual(fromJson);
    await withJsonb(false);
    expect(await answers()).toEqual(fromJson);
    await withoutJson(false);
    expect(await answers()).toEqual(fromJson);
  });
});
