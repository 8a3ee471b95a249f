/**
 * Large-pages benchmark (`pnpm bench:pages`): what one account's largest pages cost the API's
 * memory and another account's reads. Seeds a fresh database `gh_bench_pages` (BENCH_PAGES_DB)
 * with a `heavy` account's graph of 200 of the largest events ingest takes (tasks.updated of 270
 * tasks x 300 characters, ~92 KB each: a payload holds at most 100,000 characters), so that every
 * page of the largest `limit` is cut at PAGE_MAX_BYTES,
 * and a `light` account's small graphs. Then, against the built API on 127.0.0.1, twice (default
 * settings; rate limits and ACCOUNT_CONCURRENCY lifted, so only the page bound holds): eight
 * connections of the heavy account (2 keys x 4) ask for the largest pages there are, again as soon
 * as answered (honouring Retry-After), while the light account reads at 40 requests/s (and alone for 5 s before, for contrast); the API
 * process's RSS is sampled every 50 ms. Prints peak RSS (target <= 512 MB) and the light reads'
 * p99 (target <= 100 ms) with PASS/FAIL. About 1.5 minutes; stops by itself. Needs DATABASE_URL
 * (a server where it may create the database), REDIS_URL and `pnpm build`.
 */
import { readFileSync } from 'node:fs';
import { createDb, Db, migrateToLatest } from '@graph-history/db';
import { simulate } from '@graph-history/simulator';
import { createKey } from '../test/ingestor/support/api-keys';
import { largeTaskEvents } from '../test/api/support/large-events';
import { seedGraph } from '../test/support/seed';
import { benchDatabase, recreateDatabase } from './support/bench-database';
import { stopServer } from './support/child-server';
import { loadAverage } from './support/machine-load';
import { HammerCounts, Latencies, lightLoad, startApi, withHammer } from './support/read-load';

const BIG_EVENTS = 200;
const TASKS = 270;
const TASK_CHARS = 300;
const LIGHT_RATE = 40;
const PHASE_SECONDS = 20;
const IDLE_SECONDS = 5;
const RSS_TARGET_MB = 512;
const P99_TARGET_MS = 100;

/** The largest pages of the heavy graph: default and full limits, with and without nodes. */
const HEAVY_PATHS = [
  '/api/v1/graphs/gph_heavy/events',
  '/api/v1/graphs/gph_heavy/events?limit=1000&expand[]=data.node',
  '/api/v1/graphs/gph_heavy/events?limit=1000&order=asc',
  '/api/v1/graphs/gph_heavy/events?limit=100&expand[]=data.node.tasks',
];

interface Phase {
  name: string;
  idle: Latencies;
  light: Latencies;
  heavy: HammerCounts;
  peakRssMb: number;
  idleRssMb: number;
}

async function main(): Promise<void> {
  const started = Date.now();
  const bench = benchDatabase('BENCH_PAGES_DB', 'gh_bench_pages');
  console.log(`machine ${loadAverage()} at start`);
  await recreateDatabase(bench.name);
  const db = createDb(bench.url, { max: 4 });
  try {
    await migrateToLatest(db);
    await seed(db);
    const heavyKeys = [(await createKey(db, 'heavy')).key, (await createKey(db, 'heavy')).key];
    const lightKey = (await createKey(db, 'light')).key;
    const lightPaths = [1, 2]
      .map((i) => [`/api/v1/graphs/gph_light-${i}`, `/api/v1/graphs/gph_light-${i}/nodes?limit=10`])
      .flat();
    const phases = [
      await phase('default settings', bench.url, {}, heavyKeys, lightKey, lightPaths),
      await phase(
        'rate limits and concurrency lifted',
        bench.url,
        {
          RATE_LIMIT_PER_SECOND: '1000000000',
          RATE_LIMIT_BURST: '1000000000',
          ACCOUNT_CONCURRENCY: '1000000',
        },
        heavyKeys,
        lightKey,
        lightPaths,
      ),
    ];
    report(phases);
    console.log(`machine ${loadAverage()} now (other processes share the cores)`);
    console.log(`total time ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await db.destroy();
  }
}

async function phase(
  name: string,
  databaseUrl: string,
  env: Record<string, string>,
  heavyKeys: string[],
  lightKey: string,
  lightPaths: string[],
): Promise<Phase> {
  const api = await startApi(databaseUrl, env);
  try {
    await lightLoad(api.url, lightKey, lightPaths, 2, LIGHT_RATE);
    const idle = await lightLoad(api.url, lightKey, lightPaths, IDLE_SECONDS, LIGHT_RATE);
    const rss = sampleRss(api.child.pid!);
    const { light, heavy } = await withHammer(
      api.url,
      heavyKeys,
      HEAVY_PATHS,
      () => lightLoad(api.url, lightKey, lightPaths, PHASE_SECONDS, LIGHT_RATE),
      4,
    );
    await new Promise((r) => setTimeout(r, 3_000));
    const { peakMb, nowMb } = rss.stop();
    return { name, idle, light, heavy, peakRssMb: peakMb, idleRssMb: nowMb };
  } finally {
    await stopServer(api.child);
  }
}

/** The RSS of process `pid` every 50 ms, from /proc; its peak and its last value. */
function sampleRss(pid: number): { stop: () => { peakMb: number; nowMb: number } } {
  let peak = 0;
  let now = 0;
  const read = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    now = m ? Number(m[1]) / 1024 : now;
    peak = Math.max(peak, now);
  };
  read();
  const timer = setInterval(read, 50);
  return {
    stop: () => {
      clearInterval(timer);
      read();
      return { peakMb: peak, nowMb: now };
    },
  };
}

function report(phases: Phase[]): void {
  console.log(
    `\n${'heavy: 8 connections of largest pages'.padEnd(38)} ${'peak RSS MB'.padStart(11)} ${'RSS 3 s after'.padStart(13)} ${'idle p99'.padStart(8)} ${'light p50'.padStart(9)} ${'light p99'.padStart(9)} ${'non-2xx'.padStart(7)}   heavy served`,
  );
  for (const p of phases)
    console.log(
      `${p.name.padEnd(38)} ${p.peakRssMb.toFixed(0).padStart(11)} ${p.idleRssMb.toFixed(0).padStart(13)} ${p.idle.p99.toFixed(1).padStart(8)} ${p.light.p50.toFixed(1).padStart(9)} ${p.light.p99.toFixed(1).padStart(9)} ${String(p.light.non2xx).padStart(7)}   ${(p.heavy.served / PHASE_SECONDS).toFixed(1)}/s, ${(p.heavy.refused / PHASE_SECONDS).toFixed(1)} refused/s, ${(p.heavy.bytes / PHASE_SECONDS / 1e6).toFixed(1)} MB/s`,
    );
  console.log('');
  for (const p of phases) {
    const rss = p.peakRssMb <= RSS_TARGET_MB;
    const p99 = p.light.p99 <= P99_TARGET_MS;
    console.log(
      `${p.name}: API peak RSS ${p.peakRssMb.toFixed(0)} MB (target <= ${RSS_TARGET_MB}): ${rss ? 'PASS' : 'FAIL'}; other account's read p99 ${p.light.p99.toFixed(1)} ms (target <= ${P99_TARGET_MS}): ${p99 ? 'PASS' : 'FAIL'}`,
    );
  }
}

async function seed(db: Db): Promise<void> {
  const t = Date.now();
  const s = largeTaskEvents(BIG_EVENTS, TASKS, TASK_CHARS);
  // in batches: one batch of ~64 MB would be one write
  for (let i = 0; i < s.events.length; i += 4)
    await seedGraph(db, {
      accountName: 'heavy',
      graphKey: 'heavy',
      events: s.events.slice(i, i + 4),
    });
  for (const g of simulate({
    graphs: 2,
    events: 300,
    seed: 'pages-light',
    graphKeyPrefix: 'light',
  }))
    await seedGraph(db, { accountName: 'light', graphKey: g.graphKey, events: g.events });
  const size = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max(eb.fn('octet_length', ['public_json'])).as('largest'))
    .executeTakeFirst();
  console.log(
    `seeded ${BIG_EVENTS} events of ${((Number(size?.largest) || 0) / 1e6).toFixed(1)} MB (largest stored JSON) and 2 light graphs in ${((Date.now() - t) / 1000).toFixed(0)} s`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
