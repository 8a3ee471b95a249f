/**
 * Notices benchmark (`pnpm bench:notices`, about half a minute): starts the built ingestor and API
 * on 127.0.0.1 against a fresh database (and the Redis at REDIS_URL, under a queue prefix of its
 * own), opens BENCH_NOTICES_STREAMS (200) notice streams of one account on the one API process,
 * then ingests BENCH_NOTICES_RUNS (50) runs, one every BENCH_NOTICES_EVERY_MS (200 ms), each one
 * batch of 10 events on a graph of its own that makes 5 notices (input required, two wait cycles,
 * failed, session ended). Prints stored (the ingest's 202) -> received by each stream: p50/p99/max,
 * and whether every stream got every notice once and in the list's order. Needs DATABASE_URL (a
 * server where it may create and drop `gh_bench_notices`).
 */
import { ChildProcess } from 'node:child_process';
import { createDb, migrateToLatest, NoticeRepository } from '@graph-history/db';
import { createKey } from '../test/ingestor/support/api-keys';
import { noticeRun } from '../test/support/notice-events';
import { benchDatabase, dropDatabase, recreateDatabase } from './support/bench-database';
import { stopServer } from './support/child-server';
import { startIngestorAndApi } from './support/ingestor-and-api';
import { IngestClient } from './support/ingest-client';
import { SseBenchClient } from './support/sse-bench-client';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_NOTICES_${name}`] ?? fallback);
const STREAMS = setting('STREAMS', 200);
const RUNS = setting('RUNS', 50);
const EVERY_MS = setting('EVERY_MS', 200);
const NOTICES_PER_RUN = 5;
const BENCH_DB = 'gh_bench_notices';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A notice stream client that keeps each notice's id, graph and arrival. */
class NoticeClient extends SseBenchClient {
  readonly ids: string[] = [];
  readonly graphs: string[] = [];
  readonly arrived: number[] = [];

  protected received(id: string, data: string): void {
    this.ids.push(id);
    this.graphs.push((JSON.parse(data) as { graph_id: string }).graph_id);
    this.arrived.push(Date.now());
  }
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function main(): Promise<void> {
  const bench = benchDatabase('BENCH_NOTICES_DB', BENCH_DB);
  await recreateDatabase(bench.name);
  const db = createDb(bench.url, { max: 4 });
  const children: ChildProcess[] = [];
  try {
    await migrateToLatest(db);
    const { auth, accountId } = await createKey(db, 'bench');
    const { ingestUrl, apiUrl } = await startIngestorAndApi(
      children,
      bench.url,
      `gh-bench-notices-${process.pid}`,
    );
    const ingest = new IngestClient([ingestUrl], auth);
    const clients = Array.from({ length: STREAMS }, () => new NoticeClient());
    for (let i = 0; i < clients.length; i += 100)
      await Promise.all(
        clients.slice(i, i + 100).map((c) => c.open(`${apiUrl}/api/v1/notices/stream`, auth)),
      );
    await sleep(1_000);
    const stored = new Map<string, number>();
    const t0 = Date.now() - 3_600_000;
    for (let i = 0; i < RUNS; i++) {
      const key = `run${i}`;
      await ingest.send(IngestClient.prepare(key, noticeRun(key, t0 + i * 1_000)));
      stored.set(`gph_${key}`, Date.now());
      await sleep(EVERY_MS);
    }
    const total = RUNS * NOTICES_PER_RUN;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(200)) {
      if (clients.every((c) => c.ids.length >= total)) break;
    }
    const listed = (
      await new NoticeRepository(db).page({ accountId, graphKeys: null }, total + 1, {})
    )
      .map((r) => (JSON.parse(r.body) as { id: string }).id)
      .reverse();
    const delays: number[] = [];
    let complete = 0;
    for (const c of clients) {
      if (c.ids.join() === listed.join()) complete++;
      c.graphs.forEach((g, i) => delays.push(c.arrived[i]! - stored.get(g)!));
    }
    delays.sort((a, b) => a - b);
    console.log(
      `notices bench: ${STREAMS} notice streams of one account, ${RUNS} runs (one batch of 10 events, ${NOTICES_PER_RUN} notices, every ${EVERY_MS} ms), ${listed.length} notices made`,
    );
    console.log(
      `  stored -> notice received: p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms, max ${delays[delays.length - 1]} ms`,
    );
    console.log(
      `  every notice once and in order: ${complete}/${STREAMS} streams ${complete === STREAMS && listed.length === total ? 'OK' : 'FAILED'}`,
    );
    for (const c of clients) c.close();
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
