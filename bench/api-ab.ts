/**
 * `pnpm bench:api-ab <other checkout>`: this checkout's API against another's (say a worktree of
 * an older commit, built with `pnpm build`) on the read scenarios of `pnpm bench:api` (node and
 * graph reads unless BENCH_API_SCENARIOS names others), interleaved round by round with the
 * baseline, so a before/after holds on a busy machine. Each side reads its own seeded
 * database: this one BENCH_API_DB (as `pnpm bench:api`), the other BENCH_API_AB_DB (seeded by that
 * checkout's write path, e.g. by running this checkout's bench/ there). Prints each round's req/s
 * and share of the baseline run just before, the CPU per request of each server process and of
 * the Postgres backends serving it (found by application name), and the medians.
 * BENCH_AB_ROUNDS (default 5) and BENCH_API_SECONDS (default 5) set the length.
 */
import path from 'node:path';
import { createDb, type Db } from '@graph-history/db';
import { createKey } from '../test/ingestor/support/api-keys';
import { ACCOUNT } from './support/api-seed';
import { ApiBench, openApiBench, scenarioTargets, vacuumReadTables } from './support/api-setup';
import { readScenarios, Scenario } from './support/api-scenarios';
import { benchDatabase } from './support/bench-database';
import { startApi, startBaseline } from './support/api-servers';
import { stopServer } from './support/child-server';
import { loadAverage } from './support/machine-load';
import { backendCpuUs } from './support/backend-cpu';
import { processCpuUs } from './support/process-cpu';
import { requireWrk, runWrk, Target, WrkResult } from './support/wrk';

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
process.env.BENCH_API_SCENARIOS ??= 'node-read,graph-read';

interface Side {
  name: string;
  baseUrl: string;
  auth: string;
  scenarios: Scenario[];
  baseline: Target[];
}

async function main(): Promise<void> {
  const other = process.argv[2];
  if (!other) throw new Error('usage: pnpm bench:api-ab <path of the other checkout>');
  requireWrk();
  console.log(`${new Date().toISOString()} ${loadAverage()} at start`);
  const here = await openApiBench();
  const { name, url } = benchDatabase('BENCH_API_AB_DB', 'gh_bench_api_ab');
  const theirDb = createDb(url, { max: 4 });
  await vacuumReadTables(theirDb);
  const there: ApiBench = {
    db: theirDb,
    databaseName: name,
    databaseUrl: url,
    auth: (await createKey(theirDb, ACCOUNT)).auth,
  };
  const otherMain = path.resolve(other, 'apps/api/dist/main.js');
  // each API's Postgres backends carry its name, so their CPU is told apart (backendCpuUs)
  const appNames = ['gh-bench-ab-here', 'gh-bench-ab-there'];
  const servers = [
    await startApi(here.databaseUrl, [], { PGAPPNAME: appNames[0]! }),
    await startApi(there.databaseUrl, [], { PGAPPNAME: appNames[1]! }, otherMain),
  ];
  const baseline = await startBaseline(here.databaseUrl, { PGAPPNAME: 'gh-bench-ab-baseline' });
  try {
    const sides: Side[] = [];
    for (const [bench, server, label] of [
      [here, servers[0]!, 'this checkout'],
      [there, servers[1]!, other],
    ] as const) {
      const { targets, mixed } = await scenarioTargets(bench, server.baseUrl);
      sides.push({
        name: label,
        baseUrl: server.baseUrl,
        auth: bench.auth,
        scenarios: readScenarios(targets, mixed),
        baseline: targets.baseline,
      });
    }
    for (const [n, { name: scenario, connections }] of sides[0]!.scenarios.entries()) {
      const shares: number[][] = sides.map(() => []);
      const p50s: number[][] = sides.map(() => []);
      const cpus: number[][] = sides.map(() => []);
      const pgCpus: number[][] = sides.map(() => []);
      for (let round = 0; round < ROUNDS; round++) {
        const b = await measure(
          baseline.baseUrl,
          sides[0]!.baseline,
          50,
          undefined,
          baseline.process.pid,
          {
            db: here.db,
            name: 'gh-bench-ab-baseline',
          },
        );
        const base = b.reqPerSec;
        // Alternate which side goes first, so a drift in load favours neither.
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        const cells: string[] = [
          `round ${round + 1}: baseline ${base.toFixed(0)} req/s${cpuCell(b.cpuUsPerRequest)}${cpuCell(b.pgCpuUsPerRequest, 'Postgres')}`,
        ];
        for (const i of order) {
          const s = sides[i]!;
          const pid = servers[i]!.process.pid;
          const backends = { db: here.db, name: appNames[i]! };
          const r = await measure(
            s.baseUrl,
            s.scenarios[n]!.targets,
            connections,
            s.auth,
            pid,
            backends,
          );
          shares[i]!.push(r.reqPerSec / base);
          p50s[i]!.push(r.p50Ms);
          if (r.cpuUsPerRequest !== null) cpus[i]!.push(r.cpuUsPerRequest);
          if (r.pgCpuUsPerRequest !== null) pgCpus[i]!.push(r.pgCpuUsPerRequest);
          cells.push(
            `${s.name} ${r.reqPerSec.toFixed(0)} req/s (${pct(r.reqPerSec / base)}), p50 ${r.p50Ms.toFixed(1)} ms${cpuCell(r.cpuUsPerRequest)}${cpuCell(r.pgCpuUsPerRequest, 'Postgres')}`,
          );
        }
        console.log(`${scenario}, ${cells.join(', ')}`);
      }
      console.log(
        `${scenario}, medians: ${sides.map((s, i) => `${s.name} ${pct(median(shares[i]!))} of baseline, p50 ${median(p50s[i]!).toFixed(1)} ms${cpuCell(cpus[i]!.length ? median(cpus[i]!) : null)}${cpuCell(pgCpus[i]!.length ? median(pgCpus[i]!) : null, 'Postgres')}`).join('; ')}`,
      );
    }
    console.log(`${new Date().toISOString()} ${loadAverage()} at end`);
  } finally {
    await Promise.all([...servers, baseline].map((s) => stopServer(s.process)));
    await Promise.all([here.db.destroy(), theirDb.destroy()]);
  }
}

/**
 * A wrk run after a 1 s warm-up; with the server's `pid`, also the server process's CPU time
 * (user + system) per request, which load disturbs less than latency, and with `backends` the
 * CPU per request of the Postgres backends serving it.
 */
async function measure(
  baseUrl: string,
  targets: Target[],
  connections: number,
  auth?: string,
  pid?: number,
  backends?: { db: Db; name: string },
): Promise<WrkResult & { cpuUsPerRequest: number | null; pgCpuUsPerRequest: number | null }> {
  const run = (seconds: number) => runWrk({ baseUrl, targets, connections, seconds, auth });
  const pgCpu = () => (backends ? backendCpuUs(backends.db, backends.name) : null);
  await run(1);
  const before = processCpuUs(pid);
  const pgBefore = await pgCpu();
  const r = await run(SECONDS);
  const after = processCpuUs(pid);
  const pgAfter = await pgCpu();
  const perRequest = (a: number | null, b: number | null) =>
    a === null || b === null || r.requests === 0 ? null : (b - a) / r.requests;
  return {
    ...r,
    cpuUsPerRequest: perRequest(before, after),
    pgCpuUsPerRequest: perRequest(pgBefore, pgAfter),
  };
}

const cpuCell = (us: number | null, of = 'CPU') =>
  us === null
    ? ''
    : `, ${of} ${us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`}/req`;

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
