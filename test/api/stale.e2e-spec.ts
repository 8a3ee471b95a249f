import { ApiHarness } from './support/api-harness';
import { EventScript } from './support/watch-events';

const MIN = 60_000;

/**
 * `stale` is judged at the read's moment (decisions.md): for a time, that time; for an event id,
 * the instant before the next event, or now for the newest. Default threshold: 5 minutes.
 */
describe('read API: stale', () => {
  let h: ApiHarness;
  let ids: string[];
  const t0 = Date.now() - 30 * MIN;

  beforeAll(async () => {
    h = await ApiHarness.start();
    const s = new EventScript(t0);
    s.session('s'); // t0
    s.time = t0 + 1 * MIN;
    s.agent('s/a', 's'); // t0+1m
    s.time = Date.now() - 1 * MIN;
    s.activity('s/a'); // now-1m
    await h.seed('g', s.events);
    ids = (await h.get('/api/v1/graphs/gph_g/events?order=asc')).json.data.map(
      (e: { id: string }) => e.id,
    );
  });
  afterAll(() => h.stop());

  /** counts.stale of the graph, and the stale flags of the nodes list, at one moment. */
  async function staleAt(asOf: string | number | null) {
    const q = asOf === null ? '' : `?as_of=${asOf}`;
    const graph = (await h.get(`/api/v1/graphs/gph_g${q}`)).json;
    const nodes = (await h.get(`/api/v1/graphs/gph_g/nodes${q}`)).json.data;
    const flags = Object.fromEntries(
      nodes.map((n: { provider_ref: string; stale: boolean }) => [n.provider_ref, n.stale]),
    );
    expect(graph.counts.stale).toBe(Object.values(flags).filter(Boolean).length);
    return flags;
  }

  it('judges an event id at the instant before the next event', async () => {
    expect(await staleAt(ids[0]!)).toEqual({ s: false }); // 1 minute of silence before the agent came
    expect(await staleAt(ids[1]!)).toEqual({ s: true, 's/a': true }); // ~28 minutes before the activity
  });

  it('judges the newest event, and a read without as_of, now', async () => {
    expect(await staleAt(ids[2]!)).toEqual({ s: true, 's/a': false });
    expect(await staleAt(null)).toEqual({ s: true, 's/a': false });
    const viaId = await h.get(
      `/api/v1/graphs/gph_g/nodes/${(await h.get('/api/v1/graphs/gph_g/nodes')).json.data[0].id}?as_of=${ids[2]}`,
    );
    expect(viaId.json.stale).toBe(true);
  });

  it('judges a time at that time, with the 5 minute threshold at its edges', async () => {
    expect(await staleAt(t0 + 3 * MIN)).toEqual({ s: false, 's/a': false });
    expect(await staleAt(t0 + 5 * MIN)).toEqual({ s: false, 's/a': false }); // silent exactly 5 minutes
    expect(await staleAt(t0 + 5 * MIN + 1)).toEqual({ s: true, 's/a': false });
    expect(await staleAt(t0 + 6 * MIN + 1)).toEqual({ s: true, 's/a': true });
  });

  it('shows the same stale on expanded nodes, judged at the same moment', async () => {
    const agent = (await h.get(`/api/v1/graphs/gph_g/nodes?kind=agent`)).json.data[0];
    const r = await h.get(
      `/api/v1/graphs/gph_g/nodes/${agent.id}?as_of=${t0 + 5 * MIN + 1}&expand[]=parent`,
    );
    expect(r.json.stale).toBe(false);
    expect(r.json.parent.stale).toBe(true);
  });
});
