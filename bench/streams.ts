/**
 * Event streams benchmark (`pnpm bench:streams`, about a minute): starts the built ingestor and
 * API on 127.0.0.1 against a fresh database (and the Redis at REDIS_URL, under a queue prefix of
 * its own), then
 * 1. opens 1,000 streams of one graph on the one API process, ingests events one batch at a time
 *    and prints stored (the ingest's 202) -> received by each stream: p50/p99/max, and whether
 *    every stream got every event once and in order (target p99 <= 250 ms);
 * 2. opens 10,000 streams spread over 1,000 graphs, lets them idle and prints the API's CPU over
 *    the idle spell (target < 5% of one core) and its memory per stream (RSS growth / streams).
 * Each process holds at most ~10,000 sockets; `ulimit -n` must allow that (20,000 here: checked
 * below). BENCH_STREAMS_* variables change sizes. Needs DATABASE_URL (a server where it may
 * create and drop `gh_bench_streams`).
 */
import { ChildProcess } from 'node:child_process';
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { decodeId } from '@graph-history/domain';
import { createDb, migrateToLatest } from '@graph-history/db';
import { createKey } from '../test/ingestor/support/api-keys';
import { EventScript } from '../test/api/support/watch-events';
import { benchDatabase, dropDatabase, recreateDatabase } from './support/bench-database';
import { stopServer } from './support/child-server';
import { startIngestorAndApi } from './support/ingestor-and-api';
import { IngestClient } from './support/ingest-client';
import { processCpuUs } from './support/process-cpu';
import { SseBenchClient } from './support/sse-bench-client';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_STREAMS_${name}`] ?? fallback);
const HOT_STREAMS = setting('HOT', 1_000);
const HOT_EVENTS = setting('EVENTS', 100);
const HOT_EVERY_MS = setting('EVERY_MS', 100);
const IDLE_GRAPHS = setting('IDLE_GRAPHS', 1_000);
const IDLE_PER_GRAPH = setting('IDLE_PER_GRAPH', 10);
const IDLE_SECONDS = setting('IDLE_SECONDS', 20);
const BENCH_DB = 'gh_bench_streams';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stream client that keeps only what the bench checks: each event's sequence and arrival. */
class StreamClient extends SseBenchClient {
  readonly seqs: number[] = [];
  readonly arrived: number[] = [];

  protected received(id: string): void {
    this.seqs.push(decodeId('evt', id)!.n);
    this.arrived.push(Date.now());
  }
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

const rssKb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

async function openAll(clients: StreamClient[], urlOf: (i: number) => string, auth: string) {
  const CHUNK = 200;
  for (let i = 0; i < clients.length; i += CHUNK) {
    await Promise.all(clients.slice(i, i + CHUNK).map((c, j) => c.open(urlOf(i + j), auth)));
  }
}

async function main(): Promise<void> {
  const fdLimit = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
  const needed = IDLE_GRAPHS * IDLE_PER_GRAPH + HOT_STREAMS + 500;
  if (fdLimit < needed) throw new Error(`ulimit -n is ${fdLimit}; raise it to ${needed} or more`);
  const bench = benchDatabase('BENCH_STREAMS_DB', BENCH_DB);
  await recreateDatabase(bench.name);
  const db = createDb(bench.url, { max: 4 });
  const children: ChildProcess[] = [];
  try {
    await migrateToLatest(db);
    const { auth } = await createKey(db, 'bench');
    const { ingestUrl, apiUrl, api } = await startIngestorAndApi(
      children,
      bench.url,
      `gh-bench-streams-${process.pid}`,
      { MAX_CONNECTIONS: '20000', ACCOUNT_MAX_GRAPHS: '100000' },
    );
    const ingest = new IngestClient([ingestUrl], auth);

    // 1. one graph, 1,000 streams
    const hot = new EventScript(Date.now() - 3_600_000, 10);
    hot.session('hot');
    await ingest.send(IngestClient.prepare('hot', hot.events));
    await sleep(500);
    const hotClients = Array.from({ length: HOT_STREAMS }, () => new StreamClient());
    await openAll(hotClients, () => `${apiUrl}/api/v1/graphs/gph_hot/events/stream`, auth);
    await sleep(1_000);
    const stored = new Map<number, number>();
    for (let i = 0; i < HOT_EVENTS; i++) {
      const s = new EventScript(hot.time, 10);
      s.activity('hot');
      hot.time = s.time;
      await ingest.send(IngestClient.prepare('hot', s.events));
      stored.set(i + 2, Date.now());
      await sleep(HOT_EVERY_MS);
    }
    const expected = [...stored.keys()];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(200)) {
      if (hotClients.every((c) => c.seqs.length >= expected.length)) break;
    }
    const delays: number[] = [];
    let complete = 0;
    for (const c of hotClients) {
      if (c.seqs.join() === expected.join()) complete++;
      c.seqs.forEach((seq, i) => {
        const t = stored.get(seq);
        if (t !== undefined) delays.push(c.arrived[i]! - t);
      });
    }
    delays.sort((a, b) => a - b);
    console.log(
      `streams bench, 1 graph: ${HOT_STREAMS} streams, ${HOT_EVENTS} events (one batch every ${HOT_EVERY_MS} ms)`,
    );
    console.log(
      `  stored -> received: p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms, max ${delays[delays.length - 1]} ms (target p99 <= 250 ms)`,
    );
    console.log(
      `  every event once and in order: ${complete}/${HOT_STREAMS} streams ${complete === HOT_STREAMS ? 'OK' : 'FAILED'}`,
    );
    for (const c of hotClients) c.close();
    await sleep(1_000);

    // 2. 10,000 idle streams over 1,000 graphs
    for (let g = 0; g < IDLE_GRAPHS; g += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, IDLE_GRAPHS - g) }, (_, k) => {
          const s = new EventScript(Date.now() - 3_600_000);
          s.session(`idle${g + k}`);
          return ingest.send(IngestClient.prepare(`idle${g + k}`, s.events));
        }),
      );
    }
    await sleep(2_000);
    const rssBefore = rssKb(api.pid!);
    const idle = Array.from({ length: IDLE_GRAPHS * IDLE_PER_GRAPH }, () => new StreamClient());
    const opening = Date.now();
    await openAll(
      idle,
      (i) => `${apiUrl}/api/v1/graphs/gph_idle${i % IDLE_GRAPHS}/events/stream`,
      auth,
    );
    console.log(
      `streams bench, idle: ${idle.length} streams over ${IDLE_GRAPHS} graphs opened in ${Date.now() - opening} ms`,
    );
    await sleep(3_000);
    const rssAfter = rssKb(api.pid!);
    const cpu0 = processCpuUs(api.pid)!;
    const t0 = Date.now();
    await sleep(IDLE_SECONDS * 1_000);
    const cpu = (processCpuUs(api.pid)! - cpu0) / ((Date.now() - t0) * 1_000);
    console.log(
      `  API CPU while idle (${IDLE_SECONDS} s, heartbeats and key checks included): ${(cpu * 100).toFixed(2)}% of one core (target < 5%)`,
    );
    console.log(
      `  API memory: RSS ${Math.round(rssBefore / 1024)} MB -> ${Math.round(rssAfter / 1024)} MB, ${(((rssAfter - rssBefore) * 1024) / idle.length / 1024).toFixed(1)} KB per stream`,
    );
    for (const c of idle) c.close();
  } finally {
    for (const c of children.reverse()) await stopServer(c);
    await db.destroy();
    await dropDatabase(bench.name);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
