/**
 * Ingest benchmark (`pnpm bench:ingest`): starts the built ingestor (HTTP + apply workers) on
 * 127.0.0.1 against a fresh database (BENCH_INGEST_DB, default gh_bench_ingest), then in one run:
 *   1. throughput: sends simulated events for many graphs at once, as fast as the ingestor takes
 *      them: events/s stored, and applied (sustained, until all are readable);
 *   2. limit: Postgres alone writing the rows phase 1's apply wrote (same tables, indexes, row
 *      sizes, runs of 500 events per transaction, several clients): the apply's ceiling;
 *   3. backlog: stores events with the apply queue paused, then resumes it and times the apply
 *      alone until every event is readable;
 *   4. latency at 5,000 and 10,000 events/s offered: many graphs, small batches at a fixed rate,
 *      the graphs' sends spread over each period (BENCH_INGEST_LATENCY_BURSTS=1: all at once);
 *      store-to-readable latency from the 202 to the batch being applied (graphs.applied_seq).
 * Request bodies are serialised before each phase's clock starts, and each phase after the first
 * starts once the trims earlier ones scheduled are done and vacuumed (see settle).
 * Applied events/s are printed as a share of the limit. Needs DATABASE_URL, REDIS_URL and
 * `pnpm build`. Sizes: BENCH_INGEST_* variables (see `setting`); BENCH_INGEST_PHASES picks phases;
 * BENCH_INGESTOR_MAIN runs another checkout's built ingestor (A/B on one machine state).
 * `pnpm profile:ingest` runs it with CPU_PROFILE_DIR, BENCH_INGEST_EXPLAIN and
 * BENCH_INGESTOR_NODE_ARGS (preloads for the ingestor processes).
 */
import { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb, Db, migrateToLatest } from '@graph-history/db';
import type { WatchEvent } from '@graph-history/domain';
import { simulate } from '@graph-history/simulator';
import { INGESTOR_NODE_FLAGS } from '../libs/config/src/node-flags';
import { createKey } from '../test/ingestor/support/api-keys';
import { ApplyQueueSwitch } from './support/apply-queue';
import { benchDatabase, dropDatabase, recreateDatabase } from './support/bench-database';
import { freePort, startServer, stopServer } from './support/child-server';
import { autoExplain } from './support/auto-explain';
import { IngestClient, PreparedBatch } from './support/ingest-client';
import { loadAverage } from './support/machine-load';
import { processCpuUs } from './support/process-cpu';
import { measureWriteLimit, WriteLimit } from './support/postgres-write-limit';
import { profileWindow } from './support/profile-window';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_INGEST_${name}`] ?? fallback);
const THROUGHPUT = {
  graphs: setting('GRAPHS', 50),
  eventsPerGraph: setting('EVENTS_PER_GRAPH', 2_000),
  batch: setting('BATCH', 250),
};
const LIMIT = { graphs: 10, batch: 500, clients: 4, rounds: 5 };
const LATENCY = {
  graphs: setting('LATENCY_GRAPHS', 50),
  everyMs: setting('LATENCY_EVERY_MS', 500),
  seconds: setting('LATENCY_SECONDS', 10),
  rates: [5_000, 10_000],
};
/** BENCH_INGEST_LATENCY_BURSTS=1: every graph sends at the same instant of each period. */
const BURSTS = process.env.BENCH_INGEST_LATENCY_BURSTS === '1';
const PHASES = (process.env.BENCH_INGEST_PHASES ?? 'throughput,limit,backlog,latency').split(',');
/** Ingestor processes (HTTP + worker each, one database and queue); graphs are spread over them. */
const PROCESSES = setting('PROCESSES', 1);
/** The built ingestor to run; BENCH_INGESTOR_MAIN points at another checkout's for an A/B. */
const INGESTOR_MAIN =
  process.env.BENCH_INGESTOR_MAIN ?? path.resolve(__dirname, '../apps/ingestor/dist/main.js');
/** Own queues per run: another run on the same Redis must neither take nor pause these jobs. */
/** Set by `pnpm profile:ingest` (with the profile-window preload in BENCH_INGESTOR_NODE_ARGS). */
const PROFILE_DIR = process.env.CPU_PROFILE_DIR;
const QUEUE_PREFIX = `gh-bench-ingest-${process.pid}`;
/** How often the latency phases look for each batch's apply. */
const POLL_MS = 5;
/**
 * How often the throughput and backlog phases look for the last apply: an error of at most 0.5% of
 * a phase's time. Polling every 5 ms, the bench took 7-10% of a core from the apply it measured.
 */
const RATE_POLL_MS = 20;

interface Pending {
  graphKey: string;
  seq: number;
  ackedAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();
const perSecond = (n: number, ms: number) => Math.round((n * 1000) / ms);

async function main(): Promise<void> {
  const bench = benchDatabase('BENCH_INGEST_DB', 'gh_bench_ingest');
  console.log(`${new Date().toISOString()} ${loadAverage()} at start`);
  await recreateDatabase(bench.name);
  const db = createDb(bench.url, { max: 4 });
  const ingestors: ChildProcess[] = [];
  const queue = new ApplyQueueSwitch(QUEUE_PREFIX);
  let openClient: IngestClient | undefined;
  try {
    await migrateToLatest(db);
    if (process.env.BENCH_INGEST_EXPLAIN) await autoExplain(bench.name, true);
    const { auth } = await createKey(db, 'bench');
    const urls: string[] = [];
    for (let i = 0; i < PROCESSES; i++) {
      const port = await freePort();
      ingestors.push(
        await startServer(
          [...nodeArgs(), INGESTOR_MAIN],
          {
            DATABASE_URL: bench.url,
            INGEST_PORT: String(port),
            QUEUE_PREFIX,
            LOG_LEVEL: 'warn',
            // one account sends everything here: the per-account limit would measure itself
            INGEST_EVENTS_PER_SECOND: '1000000000',
            INGEST_EVENTS_BURST: '1000000000',
            INGEST_BYTES_PER_SECOND: '1000000000000',
            INGEST_BYTES_BURST: '1000000000000',
          },
          `http://127.0.0.1:${port}/readyz`,
        ),
      );
      urls.push(`http://127.0.0.1:${port}`);
    }
    await queue.resume(); // a bench that died while paused leaves the queue paused
    const client = new IngestClient(urls, auth);
    openClient = client;
    const ingestorCpu = () =>
      ingestors.reduce((ms, p) => ms + (processCpuUs(p.pid) ?? 0) / 1000, 0);
    console.log(
      `ingest bench: ${PROCESSES} ingestor process(es); ${THROUGHPUT.graphs} graphs x ${THROUGHPUT.eventsPerGraph} events, batches of ${THROUGHPUT.batch}`,
    );
    let applied: number | undefined;
    let limit: WriteLimit | undefined;
    const profiled = <T>(name: string, during: () => Promise<T>): Promise<T> =>
      PROFILE_DIR ? profileWindow(ingestors, PROFILE_DIR, name, during) : during();
    let earlierPhase = false;
    /** Each phase after the first starts once the work the earlier ones left behind is done. */
    const phase = async <T>(run: () => Promise<T>): Promise<T> => {
      if (earlierPhase) await settle(db, queue);
      earlierPhase = true;
      return run();
    };
    if (PHASES.includes('throughput'))
      applied = await phase(() =>
        profiled('ingest-throughput', () => throughputPhase(db, client, ingestorCpu)),
      );
    if (PHASES.includes('limit') && applied !== undefined)
      limit = await phase(() => limitPhase(db, bench.url));
    if (limit && applied !== undefined)
      console.log(
        `  applied (sustained, throughput phase) = ${((100 * applied) / limit.eventsPerSecond).toFixed(0)}% of the Postgres limit`,
      );
    if (PHASES.includes('backlog'))
      await phase(() =>
        backlogPhase(db, client, queue, limit, ingestorCpu, (during) =>
          profiled('ingest-backlog-apply', during),
        ),
      );
    if (PHASES.includes('latency'))
      await phase(async () => {
        for (const rate of LATENCY.rates) await latencyPhase(db, client, rate);
      });
    console.log(`${new Date().toISOString()} ${loadAverage()} at end`);
  } finally {
    openClient?.close();
    await queue.resume().catch(() => undefined);
    await queue.close();
    await Promise.all(ingestors.map(stopServer));
    await db.destroy();
    await dropDatabase(bench.name);
  }
}

/**
 * The ingestor's own start-up flags, then extra ones for its processes (e.g. the profile preload
 * of `pnpm profile:ingest`).
 */
const nodeArgs = (): string[] => [
  ...INGESTOR_NODE_FLAGS,
  ...(process.env.BENCH_INGESTOR_NODE_ARGS ?? '').split(' ').filter(Boolean),
];

/** The simulated graphs of a throughput-sized phase and their number of events. */
function throughputGraphs(seed: string, graphKeyPrefix: string) {
  const graphs = simulate({
    graphs: THROUGHPUT.graphs,
    events: THROUGHPUT.eventsPerGraph,
    seed,
    graphKeyPrefix,
  });
  return { graphs, total: graphs.reduce((n, g) => n + g.events.length, 0) };
}

/** Trims of earlier phases may take this long to finish before the next phase starts. */
const SETTLE_TIMEOUT_MS = 120_000;

/**
 * Lets the work earlier phases left behind finish before the next one, so that each measures its
 * own load: the delayed trims of graphs past retention, then a vacuum of what the trims deleted
 * (autovacuum would otherwise start on those tables mid-phase).
 */
async function settle(db: Db, queue: ApplyQueueSwitch): Promise<void> {
  const start = now();
  const trimmed = await queue.trimsDone(SETTLE_TIMEOUT_MS);
  await sql`vacuum (analyze)`.execute(db);
  console.log(
    `settle: ${trimmed ? "earlier phases' trims done" : 'trims still running after 120 s'}, then vacuum (analyze), in ${((now() - start) / 1000).toFixed(1)} s`,
  );
}

/** Returns the applied events/s, sustained. */
async function throughputPhase(
  db: Db,
  client: IngestClient,
  ingestorCpu: () => number,
): Promise<number> {
  console.log('throughput: all graphs at once, as fast as the ingestor takes them');
  const { graphs, total } = throughputGraphs('bench', 'tp');
  const batches = prepareBatches(graphs, THROUGHPUT.batch);
  const cpuBefore = ingestorCpu();
  const start = now();
  const applied = watchApplied(db, 'tp-', total);
  const lastAck = await sendAll(client, batches);
  const { firstAppliedAt, allAppliedAt } = await applied;
  const cpuUsed = ingestorCpu() - cpuBefore;
  const appliedPerSecond = perSecond(total, allAppliedAt - firstAppliedAt);
  console.log(
    `  stored : ${total} events in ${((lastAck - start) / 1000).toFixed(2)} s = ${perSecond(total, lastAck - start)} events/s`,
  );
  console.log(
    `  applied: ${appliedPerSecond} events/s sustained (first to last apply); end to end (first send to all readable) ${perSecond(total, allAppliedAt - start)} events/s in ${((allAppliedAt - start) / 1000).toFixed(2)} s  [target >= 10,000 events/s: ${appliedPerSecond >= 10_000 ? 'PASS' : 'FAIL'}]`,
  );
  console.log(`  ingestor CPU (store and apply): ${cpuPerEvent(cpuUsed, total)}`);
  return appliedPerSecond;
}

/** CPU ms as µs per event: steadier than events/s on a shared machine. */
const cpuPerEvent = (ms: number, events: number): string =>
  `${ms.toFixed(0)} ms = ${((ms * 1000) / events).toFixed(1)} µs per event`;

async function limitPhase(db: Db, databaseUrl: string): Promise<WriteLimit> {
  const graphs = await db
    .selectFrom('graphs')
    .select('graph_id')
    .where('graph_key', 'like', 'tp-%')
    .orderBy('graph_id')
    .limit(LIMIT.graphs)
    .execute();
  console.log(
    `limit: Postgres alone writing the rows the apply wrote for ${graphs.length} graphs, ${LIMIT.rounds} times, ${LIMIT.batch} events per transaction, ${LIMIT.clients} clients`,
  );
  const limit = await measureWriteLimit(databaseUrl, {
    graphIds: graphs.map((g) => g.graph_id),
    ...LIMIT,
  });
  console.log(
    `  ${limit.events} events (${limit.rowsPerEvent.toFixed(2)} rows each) in ${limit.seconds.toFixed(2)} s = ${Math.round(limit.eventsPerSecond)} events/s`,
  );
  return limit;
}

async function backlogPhase(
  db: Db,
  client: IngestClient,
  queue: ApplyQueueSwitch,
  limit: WriteLimit | undefined,
  ingestorCpu: () => number,
  profiled: <T>(during: () => Promise<T>) => Promise<T>,
): Promise<void> {
  console.log('backlog: store with the apply queue paused, then time the apply alone');
  const { graphs, total } = throughputGraphs('bench-backlog', 'bl');
  const batches = prepareBatches(graphs, THROUGHPUT.batch);
  await queue.pause();
  const start = now();
  const stored = await sendAll(client, batches);
  console.log(
    `  stored : ${total} events in ${((stored - start) / 1000).toFixed(2)} s = ${perSecond(total, stored - start)} events/s (nothing applied)`,
  );
  const { resumed, cpuUsed, allAppliedAt } = await profiled(async () => {
    const cpuBefore = ingestorCpu();
    const resumed = now();
    const applied = watchApplied(db, 'bl-', total);
    await queue.resume();
    const done = await applied;
    return { resumed, cpuUsed: ingestorCpu() - cpuBefore, ...done };
  });
  const rate = perSecond(total, allAppliedAt - resumed);
  const share = limit
    ? `, ${((100 * rate) / limit.eventsPerSecond).toFixed(0)}% of the Postgres limit`
    : '';
  console.log(
    `  applied: ${total} events in ${((allAppliedAt - resumed) / 1000).toFixed(2)} s = ${rate} events/s${share}  [target >= 20,000 events/s: ${rate >= 20_000 ? 'PASS' : 'FAIL'}]`,
  );
  console.log(`  ingestor CPU (apply): ${cpuPerEvent(cpuUsed, total)}`);
}

/** Each graph's events as request bodies of `batch` events, serialised before a phase's clock starts. */
const prepareBatches = (
  graphs: { graphKey: string; events: WatchEvent[] }[],
  batch: number,
): PreparedBatch[][] =>
  graphs.map(({ graphKey, events }) =>
    Array.from({ length: Math.ceil(events.length / batch) }, (_, b) =>
      IngestClient.prepare(graphKey, events.slice(b * batch, (b + 1) * batch)),
    ),
  );

/** Sends every graph's batches in order, graphs in parallel; resolves at the last 202. */
async function sendAll(client: IngestClient, graphs: PreparedBatch[][]): Promise<number> {
  let lastAck = now();
  await Promise.all(
    graphs.map(async (batches) => {
      for (const batch of batches) {
        await client.send(batch);
        lastAck = now();
      }
    }),
  );
  return lastAck;
}

/** Resolves when the sum of applied_seq over the graphs whose key starts with `prefix` reaches `total`. */
async function watchApplied(
  db: Db,
  prefix: string,
  total: number,
): Promise<{ firstAppliedAt: number; allAppliedAt: number }> {
  let firstAppliedAt = 0;
  for (;;) {
    const { n } = await db
      .selectFrom('graphs')
      .select(sql<number>`coalesce(sum(applied_seq), 0)::int`.as('n'))
      .where('graph_key', 'like', `${prefix}%`)
      .executeTakeFirstOrThrow();
    const t = now();
    if (n > 0 && firstAppliedAt === 0) firstAppliedAt = t;
    if (n >= total) return { firstAppliedAt, allAppliedAt: t };
    await sleep(RATE_POLL_MS);
  }
}

async function latencyPhase(db: Db, client: IngestClient, rate: number): Promise<void> {
  const batch = Math.round((rate * LATENCY.everyMs) / 1000 / LATENCY.graphs);
  console.log(
    `latency at ${rate} events/s offered: ${LATENCY.graphs} graphs, a batch of ${batch} per graph every ${LATENCY.everyMs} ms for ${LATENCY.seconds} s, ${BURSTS ? 'all graphs at once (bursts)' : 'the graphs spread over the period'}`,
  );
  const prefix = `lat${rate}-`;
  const perGraph = Math.ceil((LATENCY.seconds * 1000) / LATENCY.everyMs) * batch;
  const graphs = simulate({
    graphs: LATENCY.graphs,
    events: perGraph,
    seed: `bench-latency-${rate}`,
    graphKeyPrefix: prefix.slice(0, -1),
  });
  const batches = prepareBatches(graphs, batch);
  const pending: Pending[] = [];
  const latencies: number[] = [];
  const requestTimes: number[] = [];
  let sending = true;
  const poller = (async () => {
    while (sending || pending.length > 0) {
      const rows = await db
        .selectFrom('graphs')
        .select(['graph_key', 'applied_seq'])
        .where('graph_key', 'like', `${prefix}%`)
        .execute();
      const t = now();
      const applied = new Map(rows.map((r) => [r.graph_key, r.applied_seq]));
      for (let i = pending.length - 1; i >= 0; i--) {
        const p = pending[i]!;
        if ((applied.get(p.graphKey) ?? 0) >= p.seq) {
          latencies.push(t - p.ackedAt);
          pending.splice(i, 1);
        }
      }
      await sleep(POLL_MS);
    }
  })();
  const start = now();
  await Promise.all(
    batches.map(async (graphBatches, g) => {
      // Each graph keeps its own phase, so the graphs' batches are spread over every period.
      const phase = BURSTS ? 0 : (g * LATENCY.everyMs) / LATENCY.graphs;
      let seq = 0;
      for (const [i, prepared] of graphBatches.entries()) {
        const due = start + phase + i * LATENCY.everyMs;
        if (due > now()) await sleep(due - now());
        const sentAt = now();
        const { accepted } = await client.send(prepared);
        seq += accepted;
        pending.push({ graphKey: prepared.graphKey, seq, ackedAt: now() });
        requestTimes.push(now() - sentAt);
      }
    }),
  );
  const sendSeconds = (now() - start) / 1000;
  sending = false;
  await poller;
  const sent = graphs.reduce((n, g) => n + g.events.length, 0);
  const target = rate <= 5_000 ? 250 : 1_000;
  const p99 = percentile(latencies, 99);
  console.log(
    `  ${sent} events in ${latencies.length} batches, sent in ${sendSeconds.toFixed(1)} s (${perSecond(sent, sendSeconds * 1000)} events/s achieved)`,
  );
  console.log(`  ingest request (send to 202): ${percentiles(requestTimes)}`);
  console.log(
    `  store-to-readable (202 to applied): ${percentiles(latencies)} (polling every ${POLL_MS} ms)  [target p99 <= ${target} ms: ${p99 <= target ? 'PASS' : 'FAIL'}]`,
  );
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const percentiles = (values: number[]): string =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p90 ${percentile(values, 90).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`ingest bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
