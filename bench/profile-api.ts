/**
 * `pnpm profile:api`: where the read API's time goes, per read scenario of `pnpm bench:api`.
 *   1. CPU: one API process (V8's CPU profiler, see support/cpu-profile-preload.js) profiled while wrk
 *      drives each scenario, after a warm-up: <out>/<scenario>.cpuprofile.
 *   2. SQL: auto_explain on the bench database; per scenario a fresh API process that records
 *      every statement it runs (count, time) and the EXPLAIN (ANALYZE, BUFFERS) of its slowest run,
 *      under a short, lighter load: <out>/<scenario>.sql.json.
 * Writes <out>/report.md (top functions, areas, hot statements and plans), out being
 * .data/profiles/api-<time>. Uses the bench database of `pnpm bench:api` (BENCH_API_DB).
 * PROFILE_SECONDS (default 10) sets the length of each profiled run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiBench, scenarioTargets } from './support/api-setup';
import { readScenarios, Scenario } from './support/api-scenarios';
import { startApi } from './support/api-servers';
import { autoExplain } from './support/auto-explain';
import { stopServer } from './support/child-server';
import { profileMarkdown, summariseProfile } from './support/cpu-profile-summary';
import { loadAverage } from './support/machine-load';
import { PROFILE_WINDOW_PRELOAD, profileWindow } from './support/profile-window';
import { readCaptured, sqlMarkdown } from './support/sql-report';
import { requireWrk, runWrk } from './support/wrk';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const CAPTURE_SQL = path.resolve(__dirname, 'support/capture-sql.js');

async function main(): Promise<void> {
  requireWrk();
  const out = path.resolve(
    '.data/profiles',
    `api-${new Date().toISOString().replace(/[:.]/g, '-')}`,
  );
  mkdirSync(out, { recursive: true });
  const header = `${new Date().toISOString()} ${loadAverage()} at start`;
  console.log(header);
  const bench = await openApiBench();
  try {
    const plain = await startApi(bench.databaseUrl);
    const { targets, mixed } = await scenarioTargets(bench, plain.baseUrl).finally(() =>
      stopServer(plain.process),
    );
    const scenarios = readScenarios(targets, mixed);
    const load = (baseUrl: string, s: Scenario, seconds: number, connections = s.connections) =>
      runWrk({ baseUrl, targets: s.targets, connections, seconds, auth: bench.auth });

    const api = await startApi(bench.databaseUrl, ['-r', PROFILE_WINDOW_PRELOAD], {
      CPU_PROFILE_DIR: out,
    });
    const throughput = new Map<string, string>();
    try {
      for (const s of scenarios) {
        process.stdout.write(`profiling ${s.id} (${s.connections} connections) ... `);
        await load(api.baseUrl, s, 2);
        const r = await profileWindow([api.process], out, s.id, () =>
          load(api.baseUrl, s, SECONDS),
        );
        throughput.set(
          s.id,
          `${r.reqPerSec.toFixed(0)} req/s, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms`,
        );
        console.log(throughput.get(s.id));
      }
    } finally {
      await stopServer(api.process);
    }

    await autoExplain(bench.databaseName, true);
    try {
      for (const s of scenarios) {
        process.stdout.write(`capturing SQL and plans of ${s.id} ... `);
        const traced = await startApi(bench.databaseUrl, ['-r', CAPTURE_SQL], {
          CAPTURE_SQL_FILE: path.join(out, `${s.id}.sql.json`),
        });
        try {
          await load(traced.baseUrl, s, 3, Math.min(s.connections, 4));
        } finally {
          await stopServer(traced.process);
        }
        console.log('done');
      }
    } finally {
      await autoExplain(bench.databaseName, false);
    }

    const report = [
      `# API profile ${path.basename(out)}`,
      '',
      header,
      '',
      ...scenarios.flatMap((s) => [
        `## ${s.id}: ${s.name}, ${s.connections} connections (${throughput.get(s.id)} while profiled)`,
        '',
        profileMarkdown(`CPU ${s.id}`, summariseProfile(path.join(out, `${s.id}.cpuprofile`))),
        sqlMarkdown(`SQL ${s.id}`, readCaptured(path.join(out, `${s.id}.sql.json`))),
      ]),
      `${new Date().toISOString()} ${loadAverage()} at end`,
    ].join('\n');
    writeFileSync(path.join(out, 'report.md'), report);
    console.log(`\nprofiles, captured SQL and ${path.join(out, 'report.md')} written`);
  } finally {
    await bench.db.destroy();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
