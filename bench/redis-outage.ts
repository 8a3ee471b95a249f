/**
 * Redis outage benchmark (`pnpm bench:redis-outage`): starts a redis-server of its own and the
 * built ingestor (HTTP + workers) on 127.0.0.1 against a fresh database, offers a steady load
 * (default 1,000 events/s: 20 graphs, a batch of 25 each every 500 ms), kills Redis for 30 s,
 * starts it again, and prints store-to-readable (202 -> graphs.applied_seq) before, during and
 * after the outage, and whether every event was applied exactly once. Needs DATABASE_URL (a
 * server where it may create and drop `gh_bench_outage`). BENCH_OUTAGE_* variables change sizes.
 */
import { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createDb, migrateToLatest } from '@graph-history/db';
import { simulate } from '@graph-history/simulator';
import { RedisServer } from '../test/support/redis-server';
import { createKey } from '../test/ingestor/support/api-keys';
import { percentile, SteadyLoad } from '../test/ingestor/support/steady-load';
import { benchDatabase, dropDatabase, recreateDatabase } from './support/bench-database';
import { freePort, startServer, stopServer } from './support/child-server';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_OUTAGE_${name}`] ?? fallback);
const GRAPHS = setting('GRAPHS', 20);
const BATCH = setting('BATCH', 25);
const EVERY_MS = setting('EVERY_MS', 500);
const BEFORE_S = setting('BEFORE_SECONDS', 5);
const OUTAGE_S = setting('SECONDS', 30);
const AFTER_S = setting('AFTER_SECONDS', 10);
const BENCH_DB = 'gh_bench_outage';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const bench = benchDatabase('BENCH_OUTAGE_DB', BENCH_DB);
  const benchUrl = bench.url;
  await recreateDatabase(bench.name);
  const db = createDb(benchUrl, { max: 4 });
  const redis = await RedisServer.start();
  let ingestor: ChildProcess | undefined;
  try {
    await migrateToLatest(db);
    const { auth } = await createKey(db, 'bench');
    const port = await freePort();
    ingestor = await startServer(
      [path.resolve(__dirname, '../apps/ingestor/dist/main.js')],
      {
        DATABASE_URL: benchUrl,
        REDIS_URL: redis.url,
        INGEST_PORT: String(port),
        QUEUE_PREFIX: 'gh-bench-outage',
        LOG_LEVEL: 'warn',
        // it offers 1,000 events/s from one account: the per-account ingest limit is not measured here
        INGEST_EVENTS_PER_SECOND: '1000000',
        INGEST_EVENTS_BURST: '1000000',
      },
      `http://127.0.0.1:${port}/readyz`,
    );
    const seconds = BEFORE_S + OUTAGE_S + AFTER_S;
    const perGraph = Math.ceil((seconds * 1000) / EVERY_MS) * BATCH;
    const graphs = simulate({
      graphs: GRAPHS,
      events: perGraph,
      seed: 'outage',
      graphKeyPrefix: 'o',
    });
    const load = new SteadyLoad(db, `http://127.0.0.1:${port}`, auth, graphs, {
      batch: BATCH,
      everyMs: EVERY_MS,
      pollMs: 5,
    });
    console.log(
      `redis outage bench: ${(GRAPHS * BATCH * 1000) / EVERY_MS} events/s offered (${GRAPHS} graphs, ${BATCH} per batch every ${EVERY_MS} ms); ${BEFORE_S} s, then Redis down ${OUTAGE_S} s, then ${AFTER_S} s`,
    );
    load.phase = 'before';
    load.start();
    await sleep(BEFORE_S * 1000);
    await redis.kill();
    load.phase = 'outage';
    await sleep(OUTAGE_S * 1000);
    await redis.restart();
    load.phase = 'after';
    await sleep(AFTER_S * 1000);
    await load.stop();
    await load.settle(30_000);
    if (load.failures.length)
      console.log(`  refused batches: ${load.failures.length}, e.g. ${load.failures[0]}`);
    for (const phase of ['before', 'outage', 'after']) {
      const d = load.delays(phase);
      const events = d.length * BATCH;
      console.log(
        `  ${phase.padEnd(6)}: ${events} events acknowledged; store-to-readable p50 ${percentile(d, 50)} ms, p99 ${percentile(d, 99)} ms, max ${d[d.length - 1]} ms`,
      );
    }
    const rows = await db
      .selectFrom('graphs')
      .select(['graph_key', 'ingested_seq', 'applied_seq'])
      .execute();
    const sent = new Map<string, number>();
    for (const b of load.acked)
      sent.set(b.graphKey, Math.max(sent.get(b.graphKey) ?? 0, b.lastSeq));
    const exact = rows.every(
      (r) => r.applied_seq === r.ingested_seq && r.ingested_seq === sent.get(r.graph_key),
    );
    const events = await db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `  every acknowledged event stored and applied once: ${exact ? 'yes' : 'NO'} (${rows.length} graphs, ${events.n} event rows retained)`,
    );
  } finally {
    if (ingestor) await stopServer(ingestor);
    await redis.kill();
    await db.destroy();
    await dropDatabase(bench.name);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`redis outage bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
