/**
 * Fair-share benchmark (`pnpm bench:fairness`). Seeds a fresh database `gh_bench_fairness` with a
 * `heavy` and a `light` account, starts the built API on 127.0.0.1, and measures the light
 * account's reads (a steady 40 requests/s, each sent on time whatever the previous did) three ways:
 * alone; while the heavy account hammers expensive expansions at its full quota (2 keys, 4
 * connections each, honouring Retry-After); and, for contrast, the same hammering against an API
 * whose limits are lifted. Prints p50/p99 and the target: light p99 under hammering within 2x of
 * idle. Needs DATABASE_URL (a server where it may create the database) and REDIS_URL; `pnpm build`.
 */
import { createDb, Db, migrateToLatest } from '@graph-history/db';
import { simulate } from '@graph-history/simulator';
import { createKey } from '../test/ingestor/support/api-keys';
import { seedGraph } from '../test/support/seed';
import { benchDatabase, recreateDatabase } from './support/bench-database';
import { loadAverage } from './support/machine-load';
import { stopServer } from './support/child-server';
import { HammerCounts, Latencies, lightLoad, startApi, withHammer } from './support/read-load';

const LIGHT_RATE = 40;
const PHASE_SECONDS = 12;
const WARM_UP_SECONDS = 3;

async function main(): Promise<void> {
  const bench = benchDatabase('BENCH_FAIRNESS_DB', 'gh_bench_fairness');
  const benchUrl = bench.url;
  const started = Date.now();
  console.log(`machine ${loadAverage()} at start`);
  await recreateDatabase(bench.name);
  const db = createDb(benchUrl, { max: 4 });
  try {
    await migrateToLatest(db);
    await seed(db);
    const heavyKeys = [(await createKey(db, 'heavy')).key, (await createKey(db, 'heavy')).key];
    const lightKey = (await createKey(db, 'light')).key;

    const fair = await startApi(benchUrl, {});
    const heavyPaths = await expensivePaths(fair.url, heavyKeys[0]!);
    const lightPaths = Array.from({ length: 4 }, (_, i) => [
      `/api/v1/graphs/gph_light-${i + 1}`,
      `/api/v1/graphs/gph_light-${i + 1}/nodes?limit=10`,
    ]).flat();
    console.log(
      `heavy read: ${heavyPaths[0]} (${await bodySize(fair.url, heavyKeys[0]!, heavyPaths[0]!)} bytes)`,
    );

    await lightLoad(fair.url, lightKey, lightPaths, WARM_UP_SECONDS, LIGHT_RATE);
    const idle = await lightLoad(fair.url, lightKey, lightPaths, PHASE_SECONDS, LIGHT_RATE);
    const hammered = await withHammer(fair.url, heavyKeys, heavyPaths, () =>
      lightLoad(fair.url, lightKey, lightPaths, PHASE_SECONDS, LIGHT_RATE),
    );
    await stopServer(fair.child);

    const open = await startApi(benchUrl, {
      RATE_LIMIT_PER_SECOND: '1000000000',
      RATE_LIMIT_BURST: '1000000000',
      ACCOUNT_CONCURRENCY: '1000000',
    });
    await lightLoad(open.url, lightKey, lightPaths, WARM_UP_SECONDS, LIGHT_RATE);
    const unlimited = await withHammer(open.url, heavyKeys, heavyPaths, () =>
      lightLoad(open.url, lightKey, lightPaths, PHASE_SECONDS, LIGHT_RATE),
    );
    await stopServer(open.child);

    console.log(
      `\n${'light reads (40/s)'.padEnd(46)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'non-2xx'.padStart(7)}   heavy account`,
    );
    const row = (name: string, l: Latencies, heavy = '') =>
      console.log(
        `${name.padEnd(46)} ${l.p50.toFixed(1).padStart(7)} ${l.p99.toFixed(1).padStart(7)} ${l.max.toFixed(1).padStart(7)} ${String(l.non2xx).padStart(7)}   ${heavy}`,
      );
    row('idle', idle);
    row('heavy account at full quota (fair share)', hammered.light, hammerLine(hammered.heavy));
    row('same hammering, limits lifted (contrast)', unlimited.light, hammerLine(unlimited.heavy));
    const ratio = hammered.light.p99 / idle.p99;
    console.log(
      `\ntarget: light p99 under hammering within 2x of idle: ${ratio.toFixed(2)}x: ${ratio <= 2 ? 'met' : 'MISSED'}`,
    );
    console.log(`machine ${loadAverage()} now (other processes share the cores)`);
    console.log(`total time ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await db.destroy();
  }
}

const hammerLine = (h: HammerCounts) =>
  `${(h.served / PHASE_SECONDS).toFixed(1)} served/s, ${(h.refused / PHASE_SECONDS).toFixed(1)} refused/s, ${(h.bytes / PHASE_SECONDS / 1e6).toFixed(1)} MB/s`;

/** The expensive read on each heavy graph: a session with its descendants, children's tasks and parent. */
async function expensivePaths(url: string, key: string): Promise<string[]> {
  const paths = [];
  for (let i = 1; i <= 4; i++) {
    const res = await fetch(`${url}/api/v1/graphs/gph_heavy-${i}/nodes?limit=1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const root = ((await res.json()) as { data: { id: string }[] }).data[0]!.id;
    paths.push(
      `/api/v1/graphs/gph_heavy-${i}/nodes/${root}?expand[]=descendants&expand[]=children.tasks&expand[]=parent`,
    );
  }
  return paths;
}

async function bodySize(url: string, key: string, p: string): Promise<number> {
  const res = await fetch(`${url}${p}`, { headers: { authorization: `Bearer ${key}` } });
  return (await res.arrayBuffer()).byteLength;
}

async function seed(db: Db): Promise<void> {
  const t = Date.now();
  for (const [account, events] of [
    ['heavy', 3_000],
    ['light', 500],
  ] as const) {
    for (const g of simulate({
      graphs: 4,
      events,
      seed: `fair-${account}`,
      graphKeyPrefix: account,
    }))
      await seedGraph(db, { accountName: account, graphKey: g.graphKey, events: g.events });
  }
  console.log(
    `seeded 4 heavy graphs of 3,000 events and 4 light ones in ${((Date.now() - t) / 1000).toFixed(0)} s`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
