import { CompiledQuery } from 'kysely';
import { Client } from 'pg';
import { simulate } from '@graph-history/simulator';
import { ApiHarness, Json } from '../api/support/api-harness';
import {
  deleteQueueKeys,
  startIngestor,
  uniqueQueuePrefix,
  waitFor,
} from '../ingestor/support/ingestor-harness';
import { captureStatements, CapturedStatement } from './statement-capture';

/**
 * Citus on paper, checked by machine: every graph-scoped table (first column graph_id, the
 * distribution column) must be read or changed for one graph_id given as a value, or Citus's
 * router cannot send the statement to one shard. This runs ingest (store, apply, trim) and every
 * read endpoint with its expansions on a real database, captures each statement the apps send,
 * and checks the plan (EXPLAIN) of each.
 */

interface Exception {
  /** Matches the statement's text, in lower case without double quotes or repeated spaces. */
  match: RegExp;
  why: string;
}

/**
 * Multi-shard by design (docs/architecture.md, "Citus": what runs multi-shard and what it costs).
 * Everything else is routed: a statement of one graph takes its graph_id as a value, looked up
 * first in graph_directory (a reference table; the API caches it).
 */
const MULTI_SHARD: Exception[] = [
  {
    match: /\bfrom graphs as g where g\.account_id = cast\(\$\d+ as bigint\)/,
    why: "the graph list: an account's graphs live on every shard (one fan-out per page, each graph's figures with it)",
  },
  {
    match: /\(select coalesce\(sum\(stored_bytes\), 0\)::bigint from graphs where account_id = /,
    why: "an account's bytes held (the bytes quota): its graphs live on every shard (at most once a second per account and ingestor process)",
  },
  {
    match: /applied_seq < ingested_seq or trimmed_seq < first_seq/,
    why: "the ingestor's sweeper: which graphs have work left, once a second, on every shard",
  },
];

describe('Citus routing of every statement the apps send', () => {
  let h: ApiHarness;
  let statements: CapturedStatement[] = [];
  let graphScoped: string[] = [];

  beforeAll(async () => {
    const capture = captureStatements();
    // a database distributed by graph batches reads per graph (READ_BATCH_SCOPE=graph)
    h = await ApiHarness.start({ READ_BATCH_SCOPE: 'graph' });
    const queuePrefix = uniqueQueuePrefix();
    const ingestor = await startIngestor(h.t.db, h.t.url, queuePrefix, true);
    try {
      await representativeRun(h, ingestor.baseUrl);
    } finally {
      await ingestor.close();
      await deleteQueueKeys(queuePrefix);
      statements = capture.stop();
    }
    graphScoped = (
      await h.t.db
        .selectFrom('information_schema.columns' as never)
        .select('table_name' as never)
        .where('ordinal_position' as never, '=', 1 as never)
        .where('column_name' as never, '=', 'graph_id' as never)
        .where('table_schema' as never, '=', 'public' as never)
        .execute()
    ).map((r) => (r as { table_name: string }).table_name);
  }, 120_000);
  afterAll(() => h?.stop());

  it('captured the run: reads and writes of every graph-scoped table', () => {
    expect(graphScoped).toEqual(
      expect.arrayContaining(['graphs', 'events', 'node_versions', 'inbox']),
    );
    for (const table of graphScoped)
      expect(statements.some((s) => new RegExp(`\\b${table}\\b`).test(s.text))).toBe(true);
  });

  it('routes each one to one shard (graph_id pinned to a value on every graph-scoped table)', async () => {
    const report = await violations(h.t.url, statements, graphScoped);
    const unexpected = report.filter((v) => !MULTI_SHARD.some((e) => e.match.test(v.text)));
    expect(unexpected.map((v) => `${v.tables.join(',')}: ${v.text}`)).toEqual([]);
  });

  it('tells a routed statement from one that fans out', async () => {
    const check = (text: string, values: unknown[] = []) =>
      violations(h.t.url, [{ text, values }], graphScoped).then((v) => v.flatMap((x) => x.tables));
    expect(await check('select * from events where graph_id = $1 and seq = 2', [1])).toEqual([]);
    expect(await check('select * from events where seq = $1', [2])).toEqual(['events']);
    expect(
      await check(
        'select * from graphs g join events e on e.graph_id = g.graph_id where g.graph_id = $1',
        [1],
      ),
    ).toEqual([]);
    expect(
      await check(
        'select * from graph_directory d join graphs g on g.graph_id = d.graph_id where d.graph_key = $1',
        ['k'],
      ),
    ).toEqual(['graphs']);
    expect(statements.length).toBeGreaterThan(30);
  });

  it('lists only exceptions that are still needed', async () => {
    const report = await violations(h.t.url, statements, graphScoped);
    for (const e of MULTI_SHARD)
      expect({ match: e.match.source, violates: report.some((v) => e.match.test(v.text)) }).toEqual(
        {
          match: e.match.source,
          violates: true,
        },
      );
  });
});

async function representativeRun(h: ApiHarness, ingestUrl: string): Promise<void> {
  // one graph past its retention (so it is trimmed), one within it
  const graphs = [
    ...simulate({ graphs: 1, events: 2_200, seed: 'routing', graphKeyPrefix: 'rt-long' }),
    ...simulate({ graphs: 1, events: 600, seed: 'routing', graphKeyPrefix: 'rt-short' }),
  ];
  for (const g of graphs) {
    for (let i = 0; i < g.events.length; i += 500) {
      const res = await fetch(`${ingestUrl}/ingest/v1/graphs/${g.graphKey}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events: g.events.slice(i, i + 500) }),
      });
      expect({ status: res.status, body: res.status === 202 ? '' : await res.text() }).toEqual({
        status: 202,
        body: '',
      });
    }
  }
  // applied, then trimmed (the long graph is past its retention)
  await waitFor(
    'applied and trimmed',
    async () => {
      const { rows } = await h.t.db.executeQuery<{
        applied_seq: number;
        ingested_seq: number;
        trimmed_seq: number;
      }>(
        CompiledQuery.raw(
          `${TEST_QUERY} select applied_seq, ingested_seq, trimmed_seq from graphs`,
        ),
      );
      return (
        rows.length === 2 &&
        rows.every((r) => r.applied_seq === r.ingested_seq) &&
        rows.some((r) => r.trimmed_seq > 0)
      );
    },
    60_000,
  );

  const ok = async (path: string): Promise<Json> => {
    const res = await h.get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    return res.json;
  };
  const list = await ok('/api/v1/graphs?limit=1');
  await ok(`/api/v1/graphs?limit=1&starting_after=${list.data[0].id}`);
  for (const g of graphs) {
    const id = `gph_${g.graphKey}`;
    const graph = await ok(`/api/v1/graphs/${id}`);
    const events = await ok(`/api/v1/graphs/${id}/events?limit=50&expand[]=data.node`);
    const asOf = events.data[25].id as string;
    await ok(`/api/v1/graphs/${id}?as_of=${asOf}`);
    await ok(`/api/v1/graphs/${id}/events?limit=10&starting_after=${events.data[9].id}`);
    await ok(`/api/v1/graphs/${id}/events?limit=10&as_of=${asOf}`);
    const nodes = await ok(`/api/v1/graphs/${id}/nodes?limit=100&order=tree`);
    await ok(`/api/v1/graphs/${id}/nodes?limit=5&starting_after=${nodes.data[4].id}`);
    await ok(`/api/v1/graphs/${id}/nodes?limit=100&as_of=${asOf}&expand[]=data.children`);
    await ok(`/api/v1/graphs/${id}/nodes?state=working&kind=agent`);
    await ok(`/api/v1/graphs/${id}/nodes?parent_id=${nodes.data[0].id}`);
    await ok(`/api/v1/graphs/${id}/nodes?ancestor_id=${nodes.data[0].id}&max_depth=2`);
    const expand = [
      'parent.parent',
      'root',
      'session',
      'requested_by',
      'blocked.on',
      'children.tasks',
      'descendants',
      'tasks',
      'spawns',
      'waits',
      'messages',
    ];
    const query = expand.map((p) => `expand[]=${p}`).join('&');
    for (const node of nodes.data.slice(0, 6)) {
      await ok(`/api/v1/graphs/${id}/nodes/${node.id}?${query}`);
      await ok(
        `/api/v1/graphs/${id}/nodes/${node.id}?as_of=${asOf}&${query}`.replace(
          'expand[]=descendants',
          'expand[]=descendants&descendants_max_depth=2',
        ),
      );
    }
    expect(graph.id).toBe(id);
  }
}

/** Marks the test's own statements, which are not checked. */
const TEST_QUERY = '/* test */';

interface Violation {
  text: string;
  /** Graph-scoped tables the statement reaches without graph_id pinned to a value. */
  tables: string[];
}

/** Plan-node fields that hold conditions. */
const CONDITIONS = [
  'Index Cond',
  'Recheck Cond',
  'Filter',
  'TID Cond',
  'Hash Cond',
  'Merge Cond',
  'Join Filter',
];
/** `graph_id = 42` or `x.graph_id = '42'::bigint`: a value fixed when the statement is planned. */
const PINNED = /(?:\b(\w+)\.)?\bgraph_id = '?\d+'?(?:::bigint)?\)/g;
/** `graph_id = x.graph_id`: a join on the distribution column. */
const CO_LOCATED = /(?:\b(\w+)\.)?\bgraph_id = (\w+)\.graph_id\b/g;

async function violations(
  url: string,
  statements: CapturedStatement[],
  scoped: string[],
): Promise<Violation[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const found: Violation[] = [];
    for (const s of statements.filter((s) => !s.text.startsWith(TEST_QUERY))) {
      if (!/^\s*(select|insert|update|delete|with)\b/i.test(s.text)) continue; // BEGIN, locks…
      const res = await client.query(`EXPLAIN (FORMAT JSON) ${s.text}`, s.values);
      const plan = (res.rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan;
      const tables = unpinned(plan, scoped);
      const text = s.text.replace(/"/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
      if (tables.length) found.push({ text, tables: [...new Set(tables)] });
    }
    return found;
  } finally {
    await client.end();
  }
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
  [field: string]: unknown;
}

interface Scan {
  alias: string;
  table: string;
}

/**
 * The graph-scoped tables of a plan that Citus could not route to one shard: those not pinned to
 * a value, directly or through joins on graph_id with pinned graph-scoped tables (the co-location
 * that lets Citus's router take them along).
 */
function unpinned(plan: PlanNode, scoped: string[]): string[] {
  const scans: Scan[] = [];
  const conditions: { alias: string | undefined; text: string }[] = [];
  const walk = (node: PlanNode) => {
    const table = node['Relation Name'];
    const alias = (node.Alias as string | undefined) ?? table;
    if (table && scoped.includes(table) && node['Node Type'] !== 'ModifyTable')
      scans.push({ alias: alias!, table });
    for (const c of CONDITIONS) if (node[c]) conditions.push({ alias, text: String(node[c]) });
    node.Plans?.forEach(walk);
  };
  walk(plan);
  const scopedAliases = new Set(scans.map((s) => s.alias));
  const pinned = new Set<string>();
  const edges: [string, string][] = [];
  for (const { alias, text } of conditions) {
    for (const m of text.matchAll(PINNED)) if (m[1] ?? alias) pinned.add((m[1] ?? alias)!);
    for (const m of text.matchAll(CO_LOCATED)) {
      const left = m[1] ?? alias;
      if (left && scopedAliases.has(left) && scopedAliases.has(m[2]!)) edges.push([left, m[2]!]);
    }
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const [a, b] of edges) {
      if (pinned.has(a) !== pinned.has(b)) {
        pinned.add(a).add(b);
        grew = true;
      }
    }
  }
  return scans.filter((s) => !pinned.has(s.alias)).map((s) => s.table);
}
