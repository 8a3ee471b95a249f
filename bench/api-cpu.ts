/**
 * `pnpm bench:api-cpu <other checkout>`: CPU time per request of this
 * checkout's API, the other checkout's and the baseline, under the same wrk load, read from
 * /proc/<pid>/stat (user + system) around each run. Rounds interleave the sides, so a drift in
 * the machine's load favours neither; prints each round and the medians. CPU per request is
 * steadier than req/s on a shared machine. Same environment as bench:api-ab (BENCH_API_DB,
 * BENCH_API_AB_DB, BENCH_API_SCENARIOS, BENCH_AB_ROUNDS, BENCH_API_SECONDS).
 */
import path from 'node:path';
import { createDb } from '@graph-history/db';
import { createKey } from '../test/ingestor/support/api-keys';
import { ACCOUNT } from './support/api-seed';
import { openApiBench, scenarioTargets, vacuumReadTables } from './support/api-setup';
import { readScenarios } from './support/api-scenarios';
import { benchDatabase } from './support/bench-database';
import { Running, startApi, startBaseline } from './support/api-servers';
import { stopServer } from './support/child-server';
import { loadAverage } from './support/machine-load';
import { processCpuUs } from './support/process-cpu';
import { requireWrk, runWrk, Target } from './support/wrk';

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
process.env.BENCH_API_SCENARIOS ??= 'node-read,graph-read';

async function cpuPerRequest(
  server: Running,
  targets: Target[],
  connections: number,
  auth?: string,
): Promise<{ micros: number; reqPerSec: number }> {
  const run = (seconds: number) =>
    runWrk({ baseUrl: server.baseUrl, targets, connections, seconds, auth });
  await run(1);
  const before = processCpuUs(server.process.pid) ?? 0;
  const r = await run(SECONDS);
  const used = (processCpuUs(server.process.pid) ?? 0) - before;
  if (r.errors) console.log(`  (${r.errors} errors: ${JSON.stringify(r.errorsBy)})`);
  return { micros: used / r.requests, reqPerSec: r.reqPerSec };
}

async function main(): Promise<void> {
  const other = process.argv[2];
  if (!other) throw new Error('usage: bench/api-cpu.ts <path of the other checkout>');
  requireWrk();
  console.log(`${new Date().toISOString()} ${loadAverage()} at start`);
  const here = await openApiBench();
  const { url } = benchDatabase('BENCH_API_AB_DB', 'gh_bench_api_ab');
  const theirDb = createDb(url, { max: 4 });
  await vacuumReadTables(theirDb);
  const theirAuth = (await createKey(theirDb, ACCOUNT)).auth;
  const mine = await startApi(here.databaseUrl);
  const theirs = await startApi(url, [], {}, path.resolve(other, 'apps/api/dist/main.js'));
  const baseline = await startBaseline(here.databaseUrl);
  try {
    const a = await scenarioTargets(here, mine.baseUrl);
    const b = await scenarioTargets({ ...here, db: theirDb, auth: theirAuth }, theirs.baseUrl);
    const mineScenarios = readScenarios(a.targets, a.mixed);
    const theirScenarios = readScenarios(b.targets, b.mixed);
    for (const [n, { name, connections }] of mineScenarios.entries()) {
      const results: Record<string, number[]> = { baseline: [], here: [], other: [] };
      for (let round = 0; round < ROUNDS; round++) {
        const sides = [
          ['baseline', () => cpuPerRequest(baseline, a.targets.baseline, 50)],
          ['here', () => cpuPerRequest(mine, mineScenarios[n]!.targets, connections, here.auth)],
          [
            'other',
            () => cpuPerRequest(theirs, theirScenarios[n]!.targets, connections, theirAuth),
          ],
        ] as const;
        const order = round % 2 === 0 ? [0, 1, 2] : [0, 2, 1];
        const cells: string[] = [];
        for (const i of order) {
          const [label, measure] = sides[i]!;
          const r = await measure();
          results[label]!.push(r.micros);
          cells.push(`${label} ${r.micros.toFixed(0)} µs/req (${r.reqPerSec.toFixed(0)} req/s)`);
        }
        console.log(`${name}, round ${round + 1}: ${cells.join(', ')}`);
      }
      const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
      console.log(
        `${name}, medians: baseline ${med(results.baseline!).toFixed(0)} µs, this checkout ${med(results.here!).toFixed(0)} µs, ${other} ${med(results.other!).toFixed(0)} µs per request`,
      );
    }
    console.log(`${new Date().toISOString()} ${loadAverage()} at end`);
  } finally {
    await Promise.all([mine, theirs, baseline].map((s) => stopServer(s.process)));
    await Promise.all([here.db.destroy(), theirDb.destroy()]);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
