/**
 * Claude Code HTTP hook benchmark (`pnpm bench:hooks`): starts the built ingestor and read API on
 * 127.0.0.1 against a fresh database and posts hook payloads one after another, as Claude Code
 * does (it waits for each answer), to `POST /ingest/v1/graphs/{key}/hooks/claude-code`. Reports
 * the round trip of one hook (what a hook adds to the agent's turn) p50/p99/max, and the time from
 * posting a `UserPromptSubmit` to its `status` event being listed by the read API (20 prompts,
 * each polled alone). Two runs: a new
 * graph, and a graph already holding BENCH_HOOKS_PRELOAD events of another session (the endpoint
 * reads the graph's keys before each hook). Needs DATABASE_URL (a server where it may create and
 * drop `gh_bench_hooks`) and REDIS_URL. BENCH_HOOKS_TURNS (default 200 turns of 5 hooks each),
 * BENCH_HOOKS_PRELOAD (default 20,000).
 */
import { type BenchStack, withIngestAndApi } from './support/ingest-api-stack';
import { loadAverage } from './support/machine-load';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_HOOKS_${name}`] ?? fallback);
const TURNS = setting('TURNS', 200);
const PRELOAD = setting('PRELOAD', 20_000);
const READ_SAMPLES = 20;
/** Targets (docs/performance.md): what a hook adds to the agent's turn, and prompt to readable. */
const ROUND_TRIP_P99_MS = 250;
const READABLE_P99_MS = 1_000;
const QUEUE_PREFIX = 'gh-bench-hooks';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const summary = (values: number[], p99Target: number): string => {
  const sorted = [...values].sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  const verdict = p99 <= p99Target ? 'PASS' : 'FAIL';
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms (target p99 <= ${p99Target} ms: ${verdict})`;
};

async function post(stack: BenchStack, url: string, body: unknown): Promise<number> {
  const res = await fetch(`${stack.ingestUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: stack.auth },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/** PRELOAD events of another session, through the events endpoint, in batches of 1,000. */
async function preload(stack: BenchStack, graph: string): Promise<void> {
  const t0 = Date.now() - 3_600_000;
  const events = Array.from({ length: PRELOAD }, (_, i) => ({
    key: i === 0 ? 'other:started' : `other:L${i}:0`,
    type: i === 0 ? 'session.started' : 'activity',
    created: t0 + i,
    node: 'other',
    source: { provider: 'claude-code', provider_version: '2.1.90', adapter: 'claude-code-jsonl/1' },
    payload: i === 0 ? {} : { summary: `step ${i}` },
  }));
  for (let i = 0; i < events.length; i += 1_000) {
    const status = await post(stack, `/ingest/v1/graphs/${graph}/events`, {
      events: events.slice(i, i + 1_000),
    });
    if (status !== 202) throw new Error(`preload answered ${status}`);
  }
}

async function run(stack: BenchStack, graph: string, withPreload: boolean): Promise<void> {
  if (withPreload) await preload(stack, graph);
  const sessionId = `bench-${graph}`;
  const hookUrl = `/ingest/v1/graphs/${graph}/hooks/claude-code`;
  const base = { session_id: sessionId, transcript_path: `/b/${sessionId}.jsonl`, cwd: '/bench' };
  const roundTrips: number[] = [];
  const send = async (payload: Record<string, unknown>) => {
    const started = performance.now();
    const status = await post(stack, hookUrl, { ...base, ...payload });
    roundTrips.push(performance.now() - started);
    if (status !== 204) throw new Error(`hook answered ${status}`);
  };
  for (let turn = 0; turn < TURNS; turn++) {
    const prompt = `prompt ${turn}`;
    await send({ hook_event_name: 'UserPromptSubmit', prompt, prompt_id: `p-${turn}` });
    await send({
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    await send({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    await send({
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: '/a' },
    });
    await send({ hook_event_name: 'Stop', last_assistant_message: `done ${turn}` });
  }
  // Readable: a few more prompts, each posted alone and polled until its status is listed.
  const readable: number[] = [];
  for (let i = 0; i < READ_SAMPLES; i++) {
    const prompt = `readable ${i}`;
    const postedAt = Date.now();
    await send({ hook_event_name: 'UserPromptSubmit', prompt, prompt_id: `r-${i}` });
    for (const deadline = postedAt + 30_000; Date.now() < deadline;) {
      const res = await fetch(`${stack.apiUrl}/api/v1/graphs/gph_${graph}/events?limit=5`, {
        headers: { authorization: stack.auth },
      });
      const seenAt = Date.now();
      if (res.ok) {
        const page = (await res.json()) as { data: Array<{ payload: { summary?: string } }> };
        if (page.data.some((e) => e.payload.summary === prompt)) {
          readable.push(seenAt - postedAt);
          break;
        }
      } else await res.arrayBuffer();
      await sleep(10);
    }
    await send({ hook_event_name: 'Stop', last_assistant_message: prompt });
  }
  const label = withPreload
    ? `graph holding ${PRELOAD.toLocaleString('en-US')} events`
    : 'new graph';
  console.log(`${label}: ${roundTrips.length} hooks posted one at a time`);
  console.log(
    `  hook round trip (what the agent waits): ${summary(roundTrips, ROUND_TRIP_P99_MS)}`,
  );
  console.log(
    `  a prompt hook posted to its status listed by the read API (${readable.length}/${READ_SAMPLES}): ${summary(readable, READABLE_P99_MS)}`,
  );
}

async function main(): Promise<void> {
  const setup = {
    databaseEnv: 'BENCH_HOOKS_DB',
    databaseName: 'gh_bench_hooks',
    account: 'bench-hooks',
    queuePrefix: QUEUE_PREFIX,
    ingestEnv: { INGEST_EVENTS_PER_SECOND: '1000000', INGEST_EVENTS_BURST: '1000000' },
  };
  await withIngestAndApi(setup, async (stack) => {
    console.log(`hooks bench: ${TURNS} turns of 5 hooks (${loadAverage()})`);
    await run(stack, 'bench-hooks-new', false);
    await run(stack, 'bench-hooks-full', true);
    console.log(`done (${loadAverage()})`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
