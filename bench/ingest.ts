/**
 * Ingest benchmark (`pnpm bench:ingest`): starts the built ingestor (HTTP + apply worker) on
 * 127.0.0.1 against a fresh database, then
 *   1. throughput: sends simulated events for many graphs at once, as fast as the ingestor takes
 *      them, and reports events/s stored and events/s applied (sustained, until all are applied);
 *   2. latency: offers a steady load (many graphs, small batches at a fixed rate) and reports the
 *      store-to-readable latency: from the 202 to the batch being applied (graphs.applied_seq).
 * Needs DATABASE_URL (a server where it may create and drop `gh_bench_ingest`) and REDIS_URL.
 * Sizes can be changed with BENCH_INGEST_* variables (see `setting` below); BENCH_INGEST_PHASES
 * picks the phases (default `throughput,latency`).
 */
import { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb, Db, migrateToLatest } from '@graph-history/db';
import { WatchEvent } from '@graph-history/domain';
import { simulate } from '@graph-history/simulator';
import { withDatabase } from '../test/support/database-url';
import { createKey } from '../test/ingestor/support/api-keys';
import { dropDatabase, recreateDatabase } from './support/bench-database';
import { freePort, startServer, stopServer } from './support/child-server';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_INGEST_${name}`] ?? fallback);
const THROUGHPUT = {
  graphs: setting('GRAPHS', 50),
  eventsPerGraph: setting('EVENTS_PER_GRAPH', 2_000),
  batch: setting('BATCH', 250),
};
const LATENCY = {
  graphs: setting('LATENCY_GRAPHS', 50),
  batch: setting('LATENCY_BATCH', 50),
  everyMs: setting('LATENCY_EVERY_MS', 500),
  seconds: setting('LATENCY_SECONDS', 15),
};
const PHASES = (process.env.BENCH_INGEST_PHASES ?? 'throughput,latency').split(',');
/** Ingestor processes (HTTP + worker each, one database and queue); graphs are spread over them. */
const PROCESSES = setting('PROCESSES', 1);
const QUEUE_PREFIX = 'gh-bench-ingest';
const BENCH_DB = 'gh_bench_ingest';
const POLL_MS = 5;

interface Pending {
  graphKey: string;
  seq: number;
  ackedAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl)
    throw new Error(
      'Set DATABASE_URL to a Postgres server where the bench may create the database gh_bench_ingest.',
    );
  const benchUrl = withDatabase(serverUrl, BENCH_DB);
  await recreateDatabase(serverUrl, BENCH_DB);
  const db = createDb(benchUrl, { max: 4 });
  const ingestors: ChildProcess[] = [];
  try {
    await migrateToLatest(db);
    const { auth } = await createKey(db, 'bench');
    const urls: string[] = [];
    for (let i = 0; i < PROCESSES; i++) {
      const port = await freePort();
      ingestors.push(
        await startServer(
          [path.resolve(__dirname, '../apps/ingestor/dist/main.js')],
          { DATABASE_URL: benchUrl, INGEST_PORT: String(port), QUEUE_PREFIX, LOG_LEVEL: 'warn' },
          `http://127.0.0.1:${port}/readyz`,
        ),
      );
      urls.push(`http://127.0.0.1:${port}`);
    }
    const client = new IngestClient(urls, auth);

    console.log(
      `ingest bench: ${PROCESSES} ingestor process(es) on ${urls.join(', ')}; ${THROUGHPUT.graphs} graphs x ${THROUGHPUT.eventsPerGraph} events, batches of ${THROUGHPUT.batch}`,
    );
    if (PHASES.includes('throughput')) await throughputPhase(db, client);
    if (!PHASES.includes('latency')) return;
    console.log(
      `latency phase: ${LATENCY.graphs} graphs, a batch of ${LATENCY.batch} events per graph every ${LATENCY.everyMs} ms (${(LATENCY.graphs * LATENCY.batch * 1000) / LATENCY.everyMs} events/s offered) for ${LATENCY.seconds} s`,
    );
    await latencyPhase(db, client);
  } finally {
    await Promise.all(ingestors.map(stopServer));
    await db.destroy();
    await dropDatabase(serverUrl, BENCH_DB);
  }
}

async function throughputPhase(db: Db, client: IngestClient): Promise<void> {
  const graphs = simulate({
    graphs: THROUGHPUT.graphs,
    events: THROUGHPUT.eventsPerGraph,
    seed: 'bench',
    graphKeyPrefix: 'tp',
  });
  const total = graphs.reduce((n, g) => n + g.events.length, 0);
  const start = now();
  let lastAck = start;
  const applied = watchApplied(db, total);
  await Promise.all(
    graphs.map(async ({ graphKey, events }) => {
      for (let i = 0; i < events.length; i += THROUGHPUT.batch) {
        await client.send(graphKey, events.slice(i, i + THROUGHPUT.batch));
        lastAck = now();
      }
    }),
  );
  const { firstAppliedAt, allAppliedAt } = await applied;
  const storeSeconds = (lastAck - start) / 1000;
  const applySeconds = (allAppliedAt - firstAppliedAt) / 1000;
  console.log(
    `  stored : ${total} events in ${storeSeconds.toFixed(2)} s = ${Math.round(total / storeSeconds)} events/s`,
  );
  console.log(
    `  applied: ${total} events in ${applySeconds.toFixed(2)} s (first to last apply) = ${Math.round(total / applySeconds)} events/s sustained; all readable ${((allAppliedAt - start) / 1000).toFixed(2)} s after the first send`,
  );
}

/** Resolves when the sum of applied_seq over all graphs reaches `total`. */
async function watchApplied(
  db: Db,
  total: number,
): Promise<{ firstAppliedAt: number; allAppliedAt: number }> {
  let firstAppliedAt = 0;
  for (;;) {
    const { n } = await db
      .selectFrom('graphs')
      .select(sql<number>`coalesce(sum(applied_seq), 0)::int`.as('n'))
      .executeTakeFirstOrThrow();
    const t = now();
    if (n > 0 && firstAppliedAt === 0) firstAppliedAt = t;
    if (n >= total) return { firstAppliedAt, allAppliedAt: t };
    await sleep(POLL_MS);
  }
}

async function latencyPhase(db: Db, client: IngestClient): Promise<void> {
  const perGraph = Math.ceil((LATENCY.seconds * 1000) / LATENCY.everyMs) * LATENCY.batch;
  const graphs = simulate({
    graphs: LATENCY.graphs,
    events: perGraph,
    seed: 'bench-latency',
    graphKeyPrefix: 'lat',
  });
  const pending: Pending[] = [];
  const latencies: number[] = [];
  const requestTimes: number[] = [];
  let sending = true;
  const poller = (async () => {
    while (sending || pending.length > 0) {
      const rows = await db
        .selectFrom('graphs')
        .select(['graph_key', 'applied_seq'])
        .where('graph_key', 'like', 'lat-%')
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
    graphs.map(async ({ graphKey, events }, g) => {
      await sleep((g * LATENCY.everyMs) / LATENCY.graphs); // spread the graphs over the period
      let seq = 0;
      for (let i = 0; i < events.length; i += LATENCY.batch) {
        const due = start + (i / LATENCY.batch) * LATENCY.everyMs;
        if (due > now()) await sleep(due - now());
        const sentAt = now();
        const { accepted } = await client.send(graphKey, events.slice(i, i + LATENCY.batch));
        seq += accepted;
        pending.push({ graphKey, seq, ackedAt: now() });
        requestTimes.push(now() - sentAt);
      }
    }),
  );
  sending = false;
  await poller;
  const sent = graphs.reduce((n, g) => n + g.events.length, 0);
  console.log(
    `  ${sent} events in ${latencies.length} batches over ${((now() - start) / 1000).toFixed(1)} s`,
  );
  console.log(`  ingest request (send to 202): ${percentiles(requestTimes)}`);
  console.log(
    `  store-to-readable (202 to applied): ${percentiles(latencies)} (polling every ${POLL_MS} ms)`,
  );
}

function percentiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(1);
  return `p50 ${at(50)} ms, p90 ${at(90)} ms, p99 ${at(99)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`;
}

/** Sends each graph's batches to one of the ingestors (chosen by the graph key's number). */
class IngestClient {
  constructor(
    private readonly baseUrls: string[],
    private readonly auth: string,
  ) {}

  async send(
    graphKey: string,
    events: WatchEvent[],
  ): Promise<{ accepted: number; duplicates: number }> {
    const baseUrl = this.baseUrls[Number(/\d+$/.exec(graphKey)?.[0] ?? 0) % this.baseUrls.length];
    const res = await fetch(`${baseUrl}/ingest/v1/graphs/${graphKey}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: this.auth },
      body: JSON.stringify({ events }),
    });
    const body = await res.text();
    if (res.status !== 202)
      throw new Error(`ingest of ${graphKey} answered ${res.status}: ${body}`);
    return JSON.parse(body) as { accepted: number; duplicates: number };
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`ingest bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
