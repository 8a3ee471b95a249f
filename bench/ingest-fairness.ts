/**
 * Ingest fairness benchmark (`pnpm bench:ingest-fairness`). Starts the built ingestor (HTTP and
 * apply workers, default limits) on 127.0.0.1 against a fresh database (BENCH_INGEST_FAIRNESS_DB,
 * default gh_bench_ingest_fairness) and measures a `light` account's steady stream (one event
 * every 100 ms, over 4 graphs, each sent on time whatever the previous did): alone, then while a
 * `heavy` account floods ingest from 6 clients over 300 graphs, past its per-account limit (a
 * refused batch is sent again after 50 ms, not after Retry-After, so 429s happen). Prints the
 * light account's ingest latency (request to 202) and store-to-readable latency (202 to the
 * graph's applied_seq covering the event), p50/p99/max, idle versus flooded, and the targets:
 * flooded store-to-readable p99 <= 250 ms and ingest p99 <= 100 ms. About a minute; stops by
 * itself. Needs DATABASE_URL, REDIS_URL and `pnpm build`. The ingestor takes its settings from
 * the environment too: `INGEST_EVENTS_PER_SECOND=1000000000 INGEST_EVENTS_BURST=1000000000` shows
 * the same flood without the per-account limit. Also printed: the ingestor's CPU in each phase
 * and the machine's load, since a flood that starves the ingestor of CPU says more about the
 * machine than about the scheduling.
 */
import { ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDb, Db, migrateToLatest } from '@graph-history/db';
import { INGESTOR_NODE_FLAGS } from '../libs/config/src/node-flags';
import { createKey } from '../test/ingestor/support/api-keys';
import { percentile } from '../test/ingestor/support/steady-load';
import { validRun } from '../test/ingestor/support/watch-events';
import { benchDatabase, dropDatabase, recreateDatabase } from './support/bench-database';
import { freePort, startServer, stopServer } from './support/child-server';
import { IngestClient, PreparedBatch } from './support/ingest-client';
import { loadAverage } from './support/machine-load';
import { processCpuUs } from './support/process-cpu';

const LIGHT = { graphs: 4, everyMs: 100 };
const HEAVY = { graphs: 300, clients: 6, batch: 100, eventsPerGraph: 1_000, retryMs: 50 };
const WARM_UP_SECONDS = 3;
const PHASE_SECONDS = 20;
const POLL_MS = 5;
const TARGET = { readableP99: 250, ingestP99: 100 };

const QUEUE_PREFIX = `gh-bench-ingest-fairness-${process.pid}`;
const INGESTOR_MAIN = path.resolve(__dirname, '../apps/ingestor/dist/main.js');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

interface Latencies {
  ingest: number[];
  readable: number[];
  failed: number;
  /** Seconds into the phase of each event's send, and its ingest + store-to-readable ms. */
  timeline: { at: number; ms: number }[];
}

interface FloodCount {
  accepted: number;
  events: number;
  refused: number;
  other: number;
}

async function main(): Promise<void> {
  const bench = benchDatabase('BENCH_INGEST_FAIRNESS_DB', 'gh_bench_ingest_fairness');
  console.log(`${new Date().toISOString()} machine ${loadAverage()} at start`);
  await recreateDatabase(bench.name);
  const db = createDb(bench.url, { max: 4 });
  let ingestor: ChildProcess | undefined;
  try {
    await migrateToLatest(db);
    const heavyKey = await createKey(db, 'heavy');
    const lightKey = await createKey(db, 'light');
    const port = await freePort();
    ingestor = await startServer(
      [...INGESTOR_NODE_FLAGS, INGESTOR_MAIN],
      { DATABASE_URL: bench.url, INGEST_PORT: String(port), QUEUE_PREFIX, LOG_LEVEL: 'warn' },
      `http://127.0.0.1:${port}/readyz`,
    );
    const url = `http://127.0.0.1:${port}`;
    const light = new LightStream(db, new IngestClient([url], lightKey.auth));
    const heavy = new IngestClient([url], heavyKey.auth);
    console.log(
      `light: 1 event every ${LIGHT.everyMs} ms over ${LIGHT.graphs} graphs; heavy: ${HEAVY.clients} clients over ${HEAVY.graphs} graphs, batches of ${HEAVY.batch}, a 429 retried after ${HEAVY.retryMs} ms`,
    );

    const heavyBatches = floodBatches();
    await light.run(WARM_UP_SECONDS);
    const cpu = ingestorCpu(ingestor);
    const idle = await light.run(PHASE_SECONDS);
    const idleCpu = cpu();
    const stop = { at: 0 };
    const flooding = flood(heavy, heavyBatches, stop);
    const flooded = await light.run(PHASE_SECONDS);
    const floodedCpu = cpu();
    stop.at = now();
    const count = await flooding;
    heavy.close();
    light.close();

    console.log(
      `\nheavy account: ${count.accepted} batches accepted (${Math.round(count.events / PHASE_SECONDS)} events/s), ${count.refused} refused with 429, ${count.other} other answers`,
    );
    console.log(
      `ingestor CPU: ${idleCpu}% of a core idle, ${floodedCpu}% flooded (of ${cpus().length} cores, shared with whatever else runs)`,
    );
    console.log(
      `\n${'light account'.padEnd(34)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'> 1 s'.padStart(6)} ${'events'.padStart(7)}`,
    );
    const row = (name: string, ms: number[], failed = 0) =>
      console.log(
        `${name.padEnd(34)} ${fmt(pct(ms, 50))} ${fmt(pct(ms, 99))} ${fmt(Math.max(...ms))} ${String(ms.filter((m) => m > 1_000).length).padStart(6)} ${String(ms.length).padStart(7)}${failed ? `  (${failed} not 202)` : ''}`,
      );
    row('ingest, idle', idle.ingest, idle.failed);
    row('ingest, flooded', flooded.ingest, flooded.failed);
    row('store-to-readable, idle', idle.readable);
    row('store-to-readable, flooded', flooded.readable);
    const slowest = [...flooded.timeline].sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(
      `flooded, slowest light events (send to readable): ${slowest.map((e) => `${e.ms.toFixed(0)} ms at ${e.at.toFixed(1)} s`).join(', ')}`,
    );
    const readable = pct(flooded.readable, 99);
    const ingest = pct(flooded.ingest, 99);
    const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    console.log(
      `\ntarget: flooded store-to-readable p99 ${readable.toFixed(1)} ms <= ${TARGET.readableP99} ms: ${pass(readable <= TARGET.readableP99)}`,
    );
    console.log(
      `target: flooded ingest p99 ${ingest.toFixed(1)} ms <= ${TARGET.ingestP99} ms: ${pass(ingest <= TARGET.ingestP99 && flooded.failed === 0)}`,
    );
    console.log(`${new Date().toISOString()} machine ${loadAverage()} at end`);
  } finally {
    if (ingestor) await stopServer(ingestor);
    await db.destroy();
    await dropDatabase(bench.name);
  }
}

/**
 * The light account: one event every LIGHT.everyMs, to its graphs in turn; an event waits only for
 * the previous one of its own graph (so seqs stay in order), never for the clock.
 */
class LightStream {
  private readonly runs = Array.from({ length: LIGHT.graphs }, (_, g) =>
    validRun(`light-${g}`, 2_000),
  );
  private readonly sent = new Array<number>(LIGHT.graphs).fill(0);
  private readonly stored = new Array<number>(LIGHT.graphs).fill(0);
  private phaseStart = 0;
  private readonly previous: Promise<unknown>[] = new Array(LIGHT.graphs).fill(Promise.resolve());

  constructor(
    private readonly db: Db,
    private readonly client: IngestClient,
  ) {}

  async run(seconds: number): Promise<Latencies> {
    const out: Latencies = { ingest: [], readable: [], failed: 0, timeline: [] };
    this.phaseStart = now();
    const waits: Promise<void>[] = [];
    const start = now();
    for (let i = 0; now() - start < seconds * 1_000; i++) {
      const g = i % LIGHT.graphs;
      const batch = IngestClient.prepare(`light-${g}`, [this.runs[g]![this.sent[g]!++]!]);
      const done = this.previous[g]!.then(() => this.sendOne(g, batch, out));
      this.previous[g] = done;
      waits.push(done);
      await sleep(Math.max(0, start + (i + 1) * LIGHT.everyMs - now()));
    }
    await Promise.all(waits);
    return out;
  }

  private async sendOne(g: number, batch: PreparedBatch, out: Latencies): Promise<void> {
    const sentAt = now();
    const res = await this.client.post(batch).catch(() => ({ status: 0 }));
    const ackedAt = now();
    out.ingest.push(ackedAt - sentAt);
    if (res.status !== 202) {
      out.failed++;
      return;
    }
    const seq = ++this.stored[g]!;
    for (const deadline = ackedAt + 60_000; now() < deadline;) {
      const row = await this.db
        .selectFrom('graphs')
        .select('applied_seq')
        .where('graph_key', '=', batch.graphKey)
        .executeTakeFirst();
      if (row && row.applied_seq >= seq) break;
      await sleep(POLL_MS);
    }
    out.readable.push(now() - ackedAt);
    out.timeline.push({ at: (sentAt - this.phaseStart) / 1000, ms: now() - sentAt });
  }

  close(): void {
    this.client.close();
  }
}

/** A reader of the ingestor's CPU use: each call, the % of a core it used since the last call. */
function ingestorCpu(child: ChildProcess): () => number {
  let [cpuUs, at] = [processCpuUs(child.pid) ?? 0, now()];
  return () => {
    const [cpuNow, atNow] = [processCpuUs(child.pid) ?? 0, now()];
    const percent = Math.round((100 * (cpuNow - cpuUs)) / 1000 / (atNow - at));
    [cpuUs, at] = [cpuNow, atNow];
    return percent;
  };
}

/** The heavy account's batches, per graph, serialised before any clock starts. */
function floodBatches(): PreparedBatch[][] {
  return Array.from({ length: HEAVY.graphs }, (_, g) => {
    const run = validRun(`heavy-${g}`, HEAVY.eventsPerGraph);
    return Array.from({ length: run.length / HEAVY.batch }, (_, b) =>
      IngestClient.prepare(`heavy-${g}`, run.slice(b * HEAVY.batch, (b + 1) * HEAVY.batch)),
    );
  });
}

/**
 * The heavy account: HEAVY.clients loops, each taking the next graph whose previous batch is done
 * (one batch in flight per graph, so seqs stay in order), until `stop.at` is set.
 */
async function flood(
  client: IngestClient,
  batches: PreparedBatch[][],
  stop: { at: number },
): Promise<FloodCount> {
  const next = new Array<number>(HEAVY.graphs).fill(0);
  const count: FloodCount = { accepted: 0, events: 0, refused: 0, other: 0 };
  let turn = 0;
  const takeGraph = (): number | undefined => {
    for (let tries = 0; tries < HEAVY.graphs; tries++) {
      const g = turn++ % HEAVY.graphs;
      if (next[g]! >= 0 && next[g]! < batches[g]!.length) {
        next[g] = -1 - next[g]!; // taken: negative while in flight
        return g;
      }
    }
    return undefined;
  };
  const loop = async () => {
    while (!stop.at) {
      const g = takeGraph();
      if (g === undefined) return;
      const b = -1 - next[g]!;
      const res = await client.post(batches[g]![b]!).catch(() => ({ status: 0 }));
      if (res.status === 202) {
        count.accepted++;
        count.events += HEAVY.batch;
        next[g] = b + 1;
      } else {
        if (res.status === 429) count.refused++;
        else count.other++;
        next[g] = b;
        await sleep(HEAVY.retryMs);
      }
    }
  };
  await Promise.all(Array.from({ length: HEAVY.clients }, loop));
  return count;
}

/** The p-th percentile of unsorted values. */
const pct = (values: number[], p: number): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    p,
  );

const fmt = (ms: number) => ms.toFixed(1).padStart(7);

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
