import { type IssuedKey, Services } from '../conformance/support/services';
import { WatchScript, type WatchEventJson } from '../conformance/support/watch-events';

const T = 1_763_770_000_000;
type Item = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const KINDS = ['input_tokens', 'cache_read_tokens', 'cache_creation_tokens', 'output_tokens'];
const MODELS = ['claude-sonnet-4-5-20250929', 'gpt-5-codex', 'no-such-model'];
const PARENT: Record<string, string | null> = {
  S: null,
  'S/a': 'S',
  'S/a/b': 'S/a',
  'S/c': 'S',
  R: null,
};

/** A small deterministic generator (mulberry32), so the history is the same on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Usage through the ingest endpoint and the read API (issue 31), as of every retained event. */
describe('usage, ingested and read as of any moment', () => {
  let s: Services;
  let acme: IssuedKey;
  const sent: WatchEventJson[] = [];
  let ids: string[] = [];
  let nodes: Item[] = [];

  beforeAll(async () => {
    s = await Services.start();
    acme = await s.createKey('acme');
    const w = new WatchScript(T)
      .session('S')
      .agent('S/a', 'S')
      .agent('S/a/b', 'S/a')
      .agent('S/c', 'S')
      .session('R');
    const next = random(31);
    for (let i = 0; i < 40; i++) {
      const ref = Object.keys(PARENT)[Math.floor(next() * 5)]!;
      const payload: Record<string, unknown> = { model: MODELS[Math.floor(next() * 3)] };
      for (const kind of KINDS) payload[kind] = Math.floor(next() * 5_000);
      w.event('usage.reported', ref, { ...payload, message_id: `msg_${i}` });
      if (i === 20) w.ended('S/a/b');
    }
    sent.push(...w.events);
    await s.load(acme, 'use', sent.slice(0, 25));
    // the whole history again: the first 25 are duplicates, counted once
    await s.load(acme, 'use', sent);
    ids = (await s.read('/graphs/gph_use/events?order=asc&limit=1000', acme.auth)).data.map(
      (e: Item) => e.id,
    );
    nodes = (await s.read('/graphs/gph_use/nodes', acme.auth)).data;
  }, 120_000);
  afterAll(() => s?.stop());

  /** Naive sums of the usage events among the first `n` sent, of the refs `keep` accepts. */
  function sums(n: number, keep: (ref: string) => boolean): Record<string, number> {
    const out = Object.fromEntries(KINDS.map((k) => [k, 0]));
    for (const ev of sent.slice(0, n))
      if (ev.type === 'usage.reported' && keep(ev.node))
        for (const k of KINDS) out[k]! += ev.payload[k] as number;
    return out;
  }
  const within = (ref: string, top: string): boolean =>
    ref === top || (PARENT[ref] != null && within(PARENT[ref]!, top));
  const tokens = (u: Item | null) => Object.fromEntries(KINDS.map((k) => [k, u?.[k] ?? 0]));

  it('stores every event once, a usage report after its node ended included', () => {
    expect(ids).toHaveLength(sent.length);
  });

  it('answers usage and descendant_usage of each node, and the graph usage, as of every event', async () => {
    for (let i = 0; i < ids.length; i += 3) {
      const asOf = ids[i]!;
      const graph = (await s.get(`/graphs/gph_use?as_of=${asOf}`, acme.auth)).body;
      expect(tokens(graph.usage)).toEqual(sums(i + 1, () => true));
      for (const n of nodes) {
        const res = await s.get(`/graphs/gph_use/nodes/${n.id}?as_of=${asOf}`, acme.auth);
        if (res.status === 404) continue;
        const ref = n.provider_ref as string;
        expect([ref, i, tokens(res.body.usage)]).toEqual([ref, i, sums(i + 1, (r) => r === ref)]);
        expect([ref, i, tokens(res.body.descendant_usage)]).toEqual([
          ref,
          i,
          sums(i + 1, (r) => within(r, ref)),
        ]);
      }
    }
  }, 120_000);

  it('prices each model of a node, null for an unknown one, and totals them on the graph', async () => {
    const graph = await s.read('/graphs/gph_use', acme.auth);
    const listed = (await s.read('/graphs', acme.auth)).data.find((g: Item) => g.id === graph.id);
    expect(listed.usage).toEqual(graph.usage);
    expect(Object.keys(graph.usage).sort()).toEqual([...KINDS, 'cost_usd'].sort());
    const roots = nodes.filter((n) => n.parent_id === null).map((n) => n.descendant_usage);
    const models = new Set(roots.flatMap((u: Item) => Object.keys(u.by_model)));
    expect([...models].sort()).toEqual([...MODELS].sort());
    for (const u of roots) {
      expect(u.by_model['no-such-model']?.cost_usd ?? null).toBeNull();
      const priced = MODELS.slice(0, 2).reduce((t, m) => t + (u.by_model[m]?.cost_usd ?? 0), 0);
      expect(u.cost_usd).toBeCloseTo(priced, 6);
    }
    expect(graph.usage.cost_usd).toBeCloseTo(
      roots.reduce((t: number, u: Item) => t + u.cost_usd, 0),
      5,
    );
  });

  it("records a report's effect on the node and its ancestors in the event's changes", async () => {
    const events = (await s.read('/graphs/gph_use/events?order=asc&limit=1000', acme.auth)).data;
    const report = events.find(
      (e: Item) =>
        e.type === 'usage.reported' &&
        e.payload.input_tokens > 0 &&
        nodes.find((n) => n.id === e.node_id)?.provider_ref === 'S/a/b',
    );
    expect(report.changes.map((c: Item) => Object.keys(c.fields).sort())).toEqual([
      ['descendant_usage', 'last_event', 'usage'],
      ['descendant_usage'],
      ['descendant_usage'],
    ]);
    const own = report.changes[0].fields.usage;
    expect(own.to.input_tokens - (own.from?.input_tokens ?? 0)).toBe(report.payload.input_tokens);
  });

  it('refuses a report with a negative count, naming the field', async () => {
    const bad = new WatchScript(T + 999_999).event('usage.reported', 'S', {
      model: 'm',
      input_tokens: -1,
      output_tokens: 1,
    }).events;
    const res = await s.ingest('use', bad, acme.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'events[0].payload.input_tokens',
    });
  });
});
