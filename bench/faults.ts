/**
 * Fault benchmark (`pnpm bench:faults`): the built ingestor (APPLY_PROCESSES=2) and read API on a
 * Postgres and a Redis of its own (FaultStack), under a steady ingest (default 500 events/s: 20
 * graphs, a batch of 25 each per second) and reads. Postgres is restarted, then killed (SIGKILL
 * to the server and its backends) for 30 s and started again; nothing is done to the apps. Prints
 * how long after each return each app served again, and whether every acknowledged (202) event
 * was stored and applied exactly once. Clients re-send a batch until it is acknowledged, as the
 * CLI does. BENCH_FAULTS_* variables change sizes. Stops by itself (a few minutes at most).
 */
import { loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { applyEvent, createGraphState } from '@graph-history/domain';
import { simulate } from '@graph-history/simulator';
import { FaultStack } from '../test/support/fault-stack';
import { RetryingLoad } from '../test/support/retrying-load';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_FAULTS_${name}`] ?? fallback);
const GRAPHS = setting('GRAPHS', 20);
const BATCH = setting('BATCH', 25);
const EVERY_MS = setting('EVERY_MS', 1_000);
const OUTAGE_S = setting('SECONDS', 30);
const STEADY_S = setting('STEADY_SECONDS', 5);
const TARGET_MS = 5_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const rate = (GRAPHS * BATCH * 1_000) / EVERY_MS;
  console.log(
    `faults bench: ${rate} events/s offered (${GRAPHS} graphs, ${BATCH} per batch every ${EVERY_MS} ms) and reads; Postgres restarted, then stopped (SIGKILL) for ${OUTAGE_S} s`,
  );
  const stack = await FaultStack.start({ applyProcesses: 2 });
  const seconds = 4 * STEADY_S + OUTAGE_S + 20;
  const graphs = simulate({
    graphs: GRAPHS,
    events: Math.ceil((seconds * 1_000) / EVERY_MS) * BATCH,
    seed: 'faults-bench',
    graphKeyPrefix: 'fb',
  });
  const load = new RetryingLoad(stack.ingestor.baseUrl, stack.api.baseUrl, stack.auth, graphs, {
    batch: BATCH,
    everyMs: EVERY_MS,
    retryMs: 250,
    readers: 2,
  });
  const serving = () => Promise.all(stack.apps.map((app) => stack.timeToServing(app, 60_000)));
  let passed = false;
  try {
    load.start();
    await sleep(STEADY_S * 1_000);
    const ackedRate = Math.round(load.ackedTotal / STEADY_S);
    console.log(
      `  before the faults: ${ackedRate} events/s acknowledged (load average ${loadavg()[0]!.toFixed(1)})`,
    );
    await stack.postgres.stop();
    await stack.postgres.start();
    const [ingestAfterRestart, apiAfterRestart] = await serving();
    console.log(
      `  restart: serving again after Postgres accepted connections: ingestor ${ingestAfterRestart} ms, API ${apiAfterRestart} ms`,
    );

    await sleep(STEADY_S * 1_000);
    await stack.postgres.kill();
    const downAt = Date.now();
    await sleep(OUTAGE_S * 1_000);
    const refusedDuring = load.ingestRefusals.length;
    const upAt = Date.now();
    await stack.postgres.start();
    const [ingestAfterOutage, apiAfterOutage] = await serving();
    const ackedDuring = load.ackedSentBetween(downAt, upAt);
    console.log(
      `  ${OUTAGE_S} s outage: ${ackedDuring} events acknowledged for requests sent while it was down (0 expected), ingest answered ${refusedDuring} refusals so far; serving again after its return: ingestor ${ingestAfterOutage} ms, API ${apiAfterOutage} ms`,
    );

    await sleep(2 * STEADY_S * 1_000);
    await load.stop();
    await load.settle(stack.db, 60_000).catch((err: Error) => console.log(`  ${err.message}`));

    const { lost, duplicated, misapplied } = await compare(stack, graphs, load);
    const refusals = [...load.ingestRefusals, ...load.readRefusals];
    const byStatus = new Map<string, number>();
    for (const r of refusals) {
      const k = `${r.status}${r.envelope ? ' envelope' : ''}`;
      byStatus.set(k, (byStatus.get(k) ?? 0) + 1);
    }
    const slowest = Math.max(0, ...refusals.map((r) => r.ms));
    const alive = stack.apps.every((a) => a.alive);
    const respawned = /apply worker process exited/.test(stack.ingestor.logs());
    console.log(
      `  answers other than 202/200 (ingest + reads): ${[...byStatus].map(([k, n]) => `${n} × ${k}`).join(', ') || 'none'}; slowest ${slowest} ms`,
    );
    console.log(
      `  ${load.ackedTotal} events acknowledged, ${load.reads} reads; lost ${lost}, duplicated ${duplicated}, graphs whose applied state differs from the reducer's ${misapplied}`,
    );
    console.log(
      `  apps alive: ${alive ? 'yes' : 'NO'}; apply worker process restarted: ${respawned ? 'YES' : 'no'}`,
    );
    const times = [ingestAfterRestart!, apiAfterRestart!, ingestAfterOutage!, apiAfterOutage!];
    passed =
      alive &&
      !respawned &&
      times.every((ms) => ms <= TARGET_MS) &&
      lost === 0 &&
      duplicated === 0 &&
      misapplied === 0;
    console.log(
      `Target: Postgres restarted and stopped for ${OUTAGE_S} s under ${rate} events/s offered (${ackedRate} acknowledged before the faults): both apps serving again within 5 s of its return (ingestor ${ingestAfterOutage} ms, API ${apiAfterOutage} ms after the outage; ${ingestAfterRestart} ms, ${apiAfterRestart} ms after the restart), ${lost} lost, ${duplicated} duplicated, no manual step: ${passed ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    await load.abandon();
    await stack.stop();
  }
  process.exitCode = passed ? 0 : 1;
}

/**
 * Against what got 202: acknowledged events missing from the graph's stored keys (lost), stored
 * keys beyond one per acknowledged event (duplicated), and graphs whose counts differ from the
 * reducer run over the acknowledged events (an event applied twice or not at all).
 */
async function compare(
  stack: FaultStack,
  graphs: ReturnType<typeof simulate>,
  load: RetryingLoad,
): Promise<{ lost: number; duplicated: number; misapplied: number }> {
  let lost = 0;
  let duplicated = 0;
  let misapplied = 0;
  for (const g of graphs) {
    const acked = load.ackedEvents(g);
    const row = await stack.db
      .selectFrom('graphs')
      .select(['graph_id', 'counts', 'applied_seq'])
      .where('graph_key', '=', g.graphKey)
      .executeTakeFirst();
    if (!row) {
      lost += acked.length;
      continue;
    }
    const keys = await stack.db
      .selectFrom('event_keys')
      .select('key')
      .where('graph_id', '=', row.graph_id)
      .execute();
    const stored = new Set(keys.map((k) => k.key));
    lost += acked.filter((e) => !stored.has(e.key)).length;
    duplicated += keys.length - new Set(acked.map((e) => e.key).filter((k) => stored.has(k))).size;
    const expected = createGraphState(row.graph_id);
    acked.forEach((event, i) => applyEvent(expected, event, i + 1));
    if (row.applied_seq !== acked.length || !isDeepStrictEqual(row.counts, expected.counts))
      misapplied++;
  }
  return { lost, duplicated, misapplied };
}

main().catch((err: unknown) => {
  console.error(`faults bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
