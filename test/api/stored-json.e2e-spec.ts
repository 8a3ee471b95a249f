import { sql } from 'kysely';
import type { WatchEvent } from '@graph-history/domain';
import { simulate } from '@graph-history/simulator';
import { down, up } from '../../db/migrations/0017_one_stored_shape';
import { ApiHarness } from './support/api-harness';
import { EventScript } from './support/watch-events';
import { writeRowsAsBefore0009 } from './support/rows-before-0009';

type Answer = { status: number; body: string; etag?: string; type?: string };

/**
 * Pages and node reads are sent from the JSON the apply stored (`public_json`), and records are
 * rebuilt from it. Rows written before migration 0008 (jsonb columns only) or 0009 (both) get
 * that JSON from migration 0017: reads after it give the same bytes, ETags and content type as
 * reads of rows the apply wrote, also on pages that mixed the kinds.
 */
describe('read API: stored JSON, and rows of older forms after migration 0017', () => {
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
  /** Rows in the forms of before 0008 (jsonb only), 0008 (both) and 0009 on (JSON), mixed. */
  const asBefore0017 = async () => {
    await down(h.t.db);
    for (const { graphId, events } of seeded)
      await writeRowsAsBefore0009(h.t.db, graphId, events, (no, seq) => (no + seq) % 3 !== 2);
    await sql`update events set public_json = null where seq % 3 = 0`.execute(h.t.db);
    await sql`update node_versions set public_json = null
      where (node_no + valid_from) % 3 = 0`.execute(h.t.db);
  };

  it('sends the same bytes, ETags and content type for rows migrated from older forms', async () => {
    const fromJson = await answers();
    const bodies = fromJson.map((a) => a.body).join('\n');
    // the cases that splice: stale both ways, nodes missing at an event, attention, tasks
    expect(bodies).toContain('"stale":true');
    expect(bodies).toContain('"stale":false');
    expect(bodies).toContain('"attention":{');
    expect(bodies).toContain('"data":{"node":{');
    // nodes read before they exist answer 404 node_not_yet_created
    expect(fromJson.filter((a) => a.type !== 'application/json; charset=utf-8')).toEqual([]);
    expect(fromJson.filter((a) => a.status === 200).length).toBeGreaterThan(urls.length * 0.8);
    await asBefore0017();
    const old = await sql<{ n: string }>`select
      (select count(*) from events where public_json is null) as n`.execute(h.t.db);
    expect(Number(old.rows[0]!.n)).toBeGreaterThan(100);
    await up(h.t.db);
    expect(await answers()).toEqual(fromJson);
  });
});
