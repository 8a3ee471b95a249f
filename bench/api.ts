/**
 * Read API benchmark (`pnpm bench:api`). Seeds (through the ingestor's write path, no HTTP) 200
 * graphs of 2,000 simulated events and one graph of 10,000+ nodes into `gh_bench_api` (kept between
 * runs; `--reseed` rebuilds it), starts the built API and a bare Fastify + pg baseline on 127.0.0.1,
 * and measures each scenario with autocannon after a short warm-up (JIT, pool connections, prepared
 * statements): requests/s, p50, p99.
 * Needs DATABASE_URL (a server where it may create `gh_bench_api`) and REDIS_URL; run `pnpm build` first.
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { sql } from 'kysely';
import {
  AccountRepository,
  ApiKeyRepository,
  createDb,
  Db,
  migrateToLatest,
} from '@graph-history/db';
import {
  encodeId,
  generateApiKey,
  hashApiKey,
  maskApiKey,
  type WatchEvent,
} from '@graph-history/domain';
import { simulate } from '@graph-history/simulator';
import { withDatabase } from '../test/support/database-url';
import { seedGraph } from '../test/support/seed';
import { loadAverage, recreateDatabase } from './support/bench-database';
import { freePort, startServer, stopServer } from './support/child-server';

const GRAPHS = 200;
const EVENTS_PER_GRAPH = 2_000;
const BIG_GRAPH_NODES = 10_000;
const BENCH_DB = 'gh_bench_api';
const ACCOUNT = 'bench';
const SECONDS = 6;
const WARM_UP_SECONDS = 2;

interface Scenario {
  name: string;
  connections: number;
  paths: string[];
  baseUrl: string;
  auth?: string;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl)
    throw new Error(
      'Set DATABASE_URL to a Postgres server where the bench may create the database gh_bench_api.',
    );
  const started = Date.now();
  console.log(`machine load average at start: ${loadAverage()}`);
  const benchUrl = withDatabase(serverUrl, BENCH_DB);
  const reseed = process.argv.includes('--reseed') || !(await isSeeded(serverUrl, benchUrl));
  if (reseed) await recreateDatabase(serverUrl, BENCH_DB);
  const db = createDb(benchUrl, { max: 4 });
  const children = [];
  try {
    await migrateToLatest(db);
    if (reseed) await seed(db);
    else console.log(`reusing the seeded database ${BENCH_DB} (pass --reseed to rebuild it)`);
    const key = await createKey(db);
    const [apiPort, basePort] = [await freePort(), await freePort()];
    const api = `http://127.0.0.1:${apiPort}`;
    const base = `http://127.0.0.1:${basePort}`;
    children.push(
      await startServer(
        [path.resolve(__dirname, '../apps/api/dist/main.js')],
        {
          DATABASE_URL: benchUrl,
          PORT: String(apiPort),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_SECOND: '1000000000',
          RATE_LIMIT_BURST: '1000000000',
        },
        `${api}/readyz`,
      ),
      await startServer(
        [
          '-r',
          path.resolve(__dirname, 'ts-hook.js'),
          path.resolve(__dirname, 'api-baseline-server.ts'),
        ],
        { DATABASE_URL: benchUrl, PORT: String(basePort) },
        `${base}/ready`,
      ),
    );
    const f = await fixtures(db);
    const auth = `Bearer ${key}`;
    const scenarios: Scenario[] = [
      {
        name: 'baseline: Fastify + pg single-row lookup',
        connections: 50,
        baseUrl: base,
        paths: f.nodeReads.map((n) => `/node?g=${n.graphId}&n=${n.nodeNo}&s=${n.seq}`),
      },
      {
        name: 'node read as of a random retained event',
        connections: 50,
        baseUrl: api,
        auth,
        paths: f.nodeReads.map(
          (n) =>
            `/api/v1/graphs/gph_${n.graphKey}/nodes/${encodeId('node', n.graphId, n.nodeNo)}?as_of=${encodeId('evt', n.graphId, n.seq)}`,
        ),
      },
      {
        name: 'graph read',
        connections: 50,
        baseUrl: api,
        auth,
        paths: f.graphKeys.map((k) => `/api/v1/graphs/gph_${k}`),
      },
      {
        name: 'graph list (100 per page)',
        connections: 10,
        baseUrl: api,
        auth,
        paths: ['/api/v1/graphs?limit=100'],
      },
      ...[1, 4].flatMap((connections): Scenario[] => [
        {
          name: 'events page of 1,000 with expand[]=data.node',
          connections,
          baseUrl: api,
          auth,
          paths: f.graphKeys.map(
            (k) => `/api/v1/graphs/gph_${k}/events?limit=1000&expand[]=data.node`,
          ),
        },
        {
          name: 'descendants page of 1,000 (10,000-node graph)',
          connections,
          baseUrl: api,
          auth,
          paths: f.descendantPages,
        },
      ]),
    ];
    const results = [];
    for (const s of scenarios) results.push({ s, r: await run(s) });
    console.log(
      `\n${'scenario'.padEnd(48)} ${'conns'.padStart(5)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'non-2xx'.padStart(7)}`,
    );
    for (const { s, r } of results) {
      console.log(
        `${s.name.padEnd(48)} ${String(s.connections).padStart(5)} ${r.requests.average.toFixed(0).padStart(8)} ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)} ${String(r.non2xx + r.errors).padStart(7)}`,
      );
    }
    const [baseline, node, graph, , events1, descendants1] = results.map(({ r }) => r);
    const ratio = node!.requests.average / baseline!.requests.average;
    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    console.log('\ntargets:');
    console.log(
      `  node reads / baseline ${(ratio * 100).toFixed(0)}% (>= 60%): ${verdict(ratio >= 0.6)}`,
    );
    for (const [name, r] of [
      ['node read', node!],
      ['graph read', graph!],
    ] as const)
      console.log(`  ${name} p99 ${r.latency.p99} ms (<= 25 ms): ${verdict(r.latency.p99 <= 25)}`);
    for (const [name, r] of [
      ['events page of 1,000', events1!],
      ['descendants page of 1,000', descendants1!],
    ] as const)
      console.log(
        `  ${name} p50 ${r.latency.p50} ms at 1 connection (<= 50 ms): ${verdict(r.latency.p50 <= 50)}`,
      );
    console.log(`machine load average now: ${loadAverage()} (other processes share the cores)`);
    console.log(`total time ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    for (const c of children) await stopServer(c);
    await db.destroy();
  }
}

async function run(s: Scenario): Promise<autocannon.Result> {
  let i = 0;
  const load = (duration: number) =>
    autocannon({
      url: s.baseUrl,
      connections: s.connections,
      duration,
      headers: s.auth ? { authorization: s.auth } : {},
      requests: [{ setupRequest: (req) => ({ ...req, path: s.paths[i++ % s.paths.length]! }) }],
    });
  process.stdout.write(`measuring: ${s.name} ... `);
  await load(WARM_UP_SECONDS);
  const result = await load(SECONDS);
  console.log(`${result.requests.average.toFixed(0)} req/s`);
  return result;
}

/** 200 simulated graphs of 2,000 events and one graph of 10,000+ nodes, through the write path. */
async function seed(db: Db): Promise<void> {
  const t = Date.now();
  const graphs = simulate({
    graphs: GRAPHS,
    events: EVENTS_PER_GRAPH,
    seed: 'bench-api',
    graphKeyPrefix: 'bench',
  });
  let done = 0;
  const queue = [...graphs];
  const worker = async () => {
    for (let g = queue.shift(); g; g = queue.shift()) {
      await seedGraph(db, { accountName: ACCOUNT, graphKey: g.graphKey, events: g.events });
      if (++done % 20 === 0)
        process.stdout.write(
          `seeded ${done}/${GRAPHS} graphs (${((Date.now() - t) / 1000).toFixed(0)} s)\n`,
        );
    }
  };
  await Promise.all([worker(), worker()]);
  await seedGraph(db, { accountName: ACCOUNT, graphKey: 'big', events: bigGraphEvents() });
  await sql`analyze`.execute(db);
  console.log(
    `seeded ${GRAPHS} x ${EVENTS_PER_GRAPH} events and a ${BIG_GRAPH_NODES}-node graph in ${((Date.now() - t) / 1000).toFixed(0)} s`,
  );
}

/** A session with BIG_GRAPH_NODES agents, ten children per node, then a status on every hundredth. */
function bigGraphEvents(): WatchEvent[] {
  const source = { provider: 'claude-code', provider_version: '2.0.14', adapter: 'bench/1' };
  const at = (i: number) => 1_763_770_000_000 + i * 100;
  const ref = (i: number) => (i < 0 ? 'big' : `big/a${i}`);
  const events: WatchEvent[] = [
    {
      key: 'root',
      type: 'session.started',
      created: at(0),
      node: 'big',
      source,
      payload: { title: 'big' },
    },
  ];
  for (let i = 0; i < BIG_GRAPH_NODES; i++) {
    events.push({
      key: `spawn-${i}`,
      type: 'agent.spawned',
      created: at(i + 1),
      node: ref(i),
      source,
      payload: {
        parent: ref(Math.floor(i / 10) - 1),
        agent_type: 'worker',
        purpose: `task ${i}`,
        background: true,
      },
    });
  }
  for (let i = 0; i < BIG_GRAPH_NODES; i += 100) {
    events.push({
      key: `status-${i}`,
      type: 'status',
      created: at(BIG_GRAPH_NODES + i),
      node: ref(i),
      source,
      payload: { state: 'idle', summary: `done with ${i}` },
    });
  }
  return events;
}

interface Fixtures {
  graphKeys: string[];
  nodeReads: { graphKey: string; graphId: number; nodeNo: number; seq: number }[];
  descendantPages: string[];
}

/** Request targets: random (node, retained event) pairs where the node exists, and page cursors. */
async function fixtures(db: Db): Promise<Fixtures> {
  const graphs = await db
    .selectFrom('graphs')
    .select(['graph_id', 'graph_key', 'first_seq', 'applied_seq'])
    .where('graph_key', 'like', 'bench-%')
    .execute();
  const created = await sql<{ graph_id: number; node_no: number; created: number }>`
    select graph_id, node_no, min(valid_from) as created from node_versions
    where graph_id = any(${graphs.map((g) => g.graph_id)}::bigint[]) group by graph_id, node_no`.execute(
    db,
  );
  const nodesOf = new Map<number, { nodeNo: number; created: number }[]>();
  for (const r of created.rows) {
    const list = nodesOf.get(r.graph_id) ?? [];
    list.push({ nodeNo: r.node_no, created: r.created });
    nodesOf.set(r.graph_id, list);
  }
  const random = (n: number) => Math.floor(Math.random() * n);
  const nodeReads = [];
  while (nodeReads.length < 20_000) {
    const g = graphs[random(graphs.length)]!;
    const seq = g.first_seq! + random(g.applied_seq - g.first_seq! + 1);
    const candidates = (nodesOf.get(g.graph_id) ?? []).filter((n) => n.created <= seq);
    if (candidates.length === 0) continue;
    nodeReads.push({
      graphKey: g.graph_key,
      graphId: g.graph_id,
      nodeNo: candidates[random(candidates.length)]!.nodeNo,
      seq,
    });
  }
  const big = await db
    .selectFrom('graphs')
    .select(['graph_id'])
    .where('graph_key', '=', 'big')
    .executeTakeFirstOrThrow();
  const tree = await sql<{ node_no: number }>`
    select distinct on (sort_key) node_no from node_versions where graph_id = ${big.graph_id} order by sort_key`.execute(
    db,
  );
  const root = encodeId('node', big.graph_id, tree.rows[0]!.node_no);
  const descendantPages = Array.from({ length: 500 }, () => {
    const cursor = tree.rows[1 + random(tree.rows.length - 1_001)]!.node_no;
    return `/api/v1/graphs/gph_big/nodes?ancestor_id=${root}&order=tree&limit=1000&starting_after=${encodeId('node', big.graph_id, cursor)}`;
  });
  return { graphKeys: graphs.map((g) => g.graph_key), nodeReads, descendantPages };
}

async function createKey(db: Db): Promise<string> {
  const account = await new AccountRepository(db).findOrCreate(ACCOUNT, Date.now());
  const key = generateApiKey('secret');
  await new ApiKeyRepository(db).insert({
    keyId: `key_bench_${Date.now()}`,
    accountId: account.accountId,
    kind: 'secret',
    hash: hashApiKey(key),
    masked: maskApiKey(key),
    graphKeys: null,
    created: Date.now(),
  });
  return key;
}

async function isSeeded(serverUrl: string, benchUrl: string): Promise<boolean> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [BENCH_DB]);
    if (exists.rowCount === 0) return false;
  } finally {
    await admin.end();
  }
  const c = new Client({ connectionString: benchUrl });
  await c.connect();
  try {
    const r = await c
      .query(
        `select count(*)::int as n from graphs where applied_seq > 0 and applied_seq = ingested_seq`,
      )
      .catch(() => null);
    return (r?.rows[0]?.n ?? 0) === GRAPHS + 1;
  } finally {
    await c.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
