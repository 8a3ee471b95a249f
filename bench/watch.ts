/**
 * Watch latency benchmark (`pnpm bench:watch`): starts the built ingestor and read API on
 * 127.0.0.1 against a fresh database, runs the built `graph-history watch` on a live transcript,
 * appends prompt lines to it at a steady rate and reports line-written-to-readable latency
 * (p50/p99/max): from the moment a line is appended to the moment its event is listed by the read
 * API. Two runs: without hooks (the reorder window holds every line, 1 s by default), and with
 * the hook command run after each line as Claude Code would (what `hooks install` sets up).
 * Needs DATABASE_URL (a server where it may create and drop `gh_bench_watch`) and REDIS_URL.
 * BENCH_WATCH_LINES (default 1000), BENCH_WATCH_RATE (lines/s, default 20),
 * BENCH_WATCH_WINDOW_MS (default 1000).
 */
import { ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stopServer } from './support/child-server';
import { type BenchStack, withIngestAndApi } from './support/ingest-api-stack';
import { fireHook, percentile, promptHook, promptLine, startWatch } from './support/watch-run';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_WATCH_${name}`] ?? fallback);
const LINES = setting('LINES', 1_000);
const RATE = setting('RATE', 20);
const WINDOW_MS = setting('WINDOW_MS', 1_000);
const QUEUE_PREFIX = 'gh-bench-watch';
const POLL_MS = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function run(stack: BenchStack, withHooks: boolean): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'gh-bench-watch-'));
  const graph = withHooks ? 'bench-hooks' : 'bench-files';
  const project = path.join(tmp, 'projects', `-bench-${graph}`);
  mkdirSync(project, { recursive: true });
  const sessionId = `bench-${graph}`;
  const transcript = path.join(project, `${sessionId}.jsonl`);
  const inbox = path.join(tmp, 'hooks');
  const watch: ChildProcess = startWatch({
    project,
    graph,
    ingestUrl: stack.ingestUrl,
    secret: stack.secret,
    windowMs: WINDOW_MS,
    inbox: withHooks ? inbox : null,
    dataDir: path.join(tmp, 'data'),
  });
  const written = new Map<number, number>();
  const latencies: number[] = [];
  const hookTimes: Promise<number>[] = [];
  let cursor: string | undefined;
  let polling = true;
  let lastWrite = Date.now();
  const poller = (async () => {
    while (polling || latencies.length < written.size) {
      const after = cursor ? `&starting_after=${cursor}` : '';
      const res = await fetch(
        `${stack.apiUrl}/api/v1/graphs/gph_${graph}/events?order=asc&limit=1000${after}`,
        { headers: { authorization: stack.auth } },
      ).catch(() => undefined);
      const seenAt = Date.now();
      if (res?.ok) {
        const page = (await res.json()) as {
          data: Array<{ id: string; type: string; created: number }>;
        };
        for (const event of page.data) {
          cursor = event.id;
          const at = event.type === 'status' ? written.get(event.created) : undefined;
          if (at !== undefined) latencies.push(seenAt - at);
        }
      }
      if (!polling && Date.now() - lastWrite > 30_000) break;
      await sleep(POLL_MS);
    }
  })();
  try {
    // Let the watcher start (and take the hook inbox).
    for (
      let i = 0;
      i < 100 && (withHooks ? !existsSync(path.join(inbox, 'watch.pid')) : i < 10);
      i++
    )
      await sleep(100);
    let ts = Date.now();
    for (let i = 0; i < LINES; i++) {
      ts = Math.max(ts + 1, Date.now());
      const line = promptLine(sessionId, i, ts);
      appendFileSync(transcript, `${JSON.stringify(line)}\n`);
      written.set(ts, Date.now());
      lastWrite = Date.now();
      if (withHooks) hookTimes.push(fireHook(inbox, promptHook(sessionId, transcript, i)));
      await sleep(1000 / RATE);
    }
  } finally {
    polling = false;
    await poller;
    await stopServer(watch);
    rmSync(tmp, { recursive: true, force: true });
  }
  const sorted = latencies.sort((a, b) => a - b);
  const label = withHooks ? 'with hooks   ' : 'without hooks';
  console.log(
    `${label}: ${sorted.length}/${LINES} lines readable; line-written-to-readable p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted[sorted.length - 1]} ms`,
  );
  if (withHooks) {
    const relay = (await Promise.all(hookTimes)).sort((a, b) => a - b);
    console.log(
      `  hook command (sh start to exit): p50 ${percentile(relay, 50).toFixed(0)} ms, p99 ${percentile(relay, 99).toFixed(0)} ms`,
    );
  }
}

async function main(): Promise<void> {
  const setup = {
    databaseEnv: 'BENCH_WATCH_DB',
    databaseName: 'gh_bench_watch',
    account: 'bench-watch',
    queuePrefix: QUEUE_PREFIX,
  };
  await withIngestAndApi(setup, async (stack) => {
    console.log(`watch bench: ${LINES} lines at ${RATE} lines/s, reorder window ${WINDOW_MS} ms`);
    await run(stack, false);
    await run(stack, true);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
