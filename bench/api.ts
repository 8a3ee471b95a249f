/**
 * Read API benchmark (`pnpm bench:api`). Load comes from wrk (1 thread, its own process, a random
 * URL per request over 10,000), so the generator never shares a measured server's CPU. Seeds (once,
 * kept in BENCH_API_DB) 200 graphs of 2,000 simulated events and a graph of 10,000 nodes through
 * the ingestor's write path; starts the built API and a bare Fastify + pg baseline (a node version's
 * ~1 KB jsonb by primary key) on 127.0.0.1; runs each scenario after a warm-up, the baseline
 * first, last and before each scenario with a ratio target, and prints req/s, p50, p99, the share
 * of the baseline and the targets of issue 11. Needs DATABASE_URL, REDIS_URL, wrk and `pnpm build`.
 * BENCH_API_SECONDS (default 10) sets the length of each measured run; BENCH_API_SCENARIOS
 * (comma-separated words, e.g. `events,list`) runs only the scenarios whose id contains one.
 */
import { openApiBench, scenarioTargets } from './support/api-setup';
import { averageBaselineBytes } from './support/baseline-rows';
import { readScenarios, Scenario } from './support/api-scenarios';
import { startApi, startBaseline } from './support/api-servers';
import { stopServer } from './support/child-server';
import { loadAverage } from './support/machine-load';
import { requireWrk, runWrk, Target, WrkResult } from './support/wrk';

const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const WARM_UP_SECONDS = 2;

async function main(): Promise<void> {
  requireWrk();
  const started = Date.now();
  console.log(`${new Date().toISOString()} ${loadAverage()} at start`);
  const bench = await openApiBench();
  const api = await startApi(bench.databaseUrl);
  const baseline = await startBaseline(bench.databaseUrl);
  try {
    const { targets, mixed } = await scenarioTargets(bench, api.baseUrl);
    const bytes = await averageBaselineBytes(bench.db);
    const base = (when: string): Scenario => ({
      id: 'baseline',
      name: `baseline (${when})`,
      connections: 50,
      targets: targets.baseline,
    });
    // The machine is shared: a baseline run next to each scenario with a ratio target, and
    // every ratio against the nearest baseline run before it.
    const results: [Scenario, WrkResult, WrkResult][] = [];
    let reference = await measure(baseline.baseUrl, base('before'));
    results.push([base('before'), reference, reference]);
    for (const s of readScenarios(targets, mixed)) {
      if (s.goal?.ofBaseline) {
        reference = await measure(baseline.baseUrl, base(`before ${s.id}`));
        results.push([base(`before ${s.id}`), reference, reference]);
      }
      results.push([s, await measure(api.baseUrl, s, bench.auth), reference]);
    }
    const after = await measure(baseline.baseUrl, base('after'));
    results.push([base('after'), after, reference]);
    console.log(
      `\nwrk: 1 thread, ${SECONDS} s per scenario after ${WARM_UP_SECONDS} s of warm-up, a random URL per request over ${targets.nodeReads.length} URLs; "of base" is the share of the baseline run before it`,
    );
    console.log(
      `baseline: Fastify + pg returning a node version's ${(bytes / 1000).toFixed(1)} KB jsonb by primary key`,
    );
    console.log(
      row(['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'of base', 'errors', 'target', '']),
    );
    for (const [s, r, ref] of results) console.log(row(result(s, r, ref)));
    for (const [s, r] of results.filter(([, r]) => r.errors > 0))
      console.log(`errors of ${s.name}, ${s.connections} conns: ${describeErrors(r)}`);
    console.log(
      `${new Date().toISOString()} ${loadAverage()} at end; total ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await Promise.all([stopServer(api.process), stopServer(baseline.process)]);
    await bench.db.destroy();
  }
}

async function measure(baseUrl: string, s: Scenario, auth?: string): Promise<WrkResult> {
  process.stdout.write(`measuring ${s.name}, ${s.connections} connection(s) ... `);
  const run = (seconds: number, targets: Target[]) =>
    runWrk({ baseUrl, targets, connections: s.connections, seconds, auth });
  await run(WARM_UP_SECONDS, s.targets);
  const r = await run(SECONDS, s.targets);
  console.log(`${r.reqPerSec.toFixed(0)} req/s`);
  return r;
}

function result(s: Scenario, r: WrkResult, base: WrkResult): string[] {
  return [
    s.name,
    String(s.connections),
    r.reqPerSec.toFixed(0),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    `${((100 * r.reqPerSec) / base.reqPerSec).toFixed(0)}%`,
    String(r.errors),
    s.goal?.text ?? '-',
    s.goal ? (s.goal.met(r, base) ? 'PASS' : 'FAIL') : '',
  ];
}

const describeErrors = (r: WrkResult): string =>
  Object.entries(r.errorsBy)
    .map(([kind, n]) => `${n} ${/^\d+$/.test(kind) ? `status ${kind}` : kind}`)
    .join(', ');

const WIDTHS = [-56, 5, 7, 7, 7, 7, 6, -36, -4];
const row = (cells: string[]) =>
  cells.map((c, i) => (WIDTHS[i]! < 0 ? c.padEnd(-WIDTHS[i]!) : c.padStart(WIDTHS[i]!))).join(' ');

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
