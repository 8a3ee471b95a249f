/**
 * `pnpm profile:ingest`: where the ingestor's time goes, by running `bench/ingest.ts` twice:
 *   1. CPU: the ingestor profiled (V8's CPU profiler, see support/cpu-profile-preload.js) during the
 *      throughput phase (ingest and apply at once) and during the backlog phase's apply alone;
 *   2. SQL: auto_explain on the bench database and every statement the ingestor runs recorded
 *      (count, time, the EXPLAIN (ANALYZE, BUFFERS) of its slowest run), on a smaller load.
 * Writes .data/profiles/ingest-<time>/report.md beside the .cpuprofile and .sql.json files.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { profileMarkdown, summariseProfile } from './support/cpu-profile-summary';
import { loadAverage } from './support/machine-load';
import { PROFILE_WINDOW_PRELOAD } from './support/profile-window';
import { readCaptured, sqlMarkdown } from './support/sql-report';

const CAPTURE_SQL = path.resolve(__dirname, 'support/capture-sql.js');

/** Runs bench/ingest.ts with `env`, its output shown as it comes. */
function ingestBench(env: Record<string, string>): Promise<void> {
  const child = spawn(
    process.execPath,
    ['-r', path.resolve(__dirname, 'ts-hook.js'), path.resolve(__dirname, 'ingest.ts')],
    { env: { ...process.env, ...env }, stdio: 'inherit' },
  );
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`bench/ingest.ts exited with ${code}`)),
    ),
  );
}

async function main(): Promise<void> {
  const out = path.resolve(
    '.data/profiles',
    `ingest-${new Date().toISOString().replace(/[:.]/g, '-')}`,
  );
  mkdirSync(out, { recursive: true });
  const header = `${new Date().toISOString()} ${loadAverage()} at start`;
  console.log(`${header}\n1. CPU profiles`);
  await ingestBench({
    BENCH_INGEST_PHASES: 'throughput,backlog',
    BENCH_INGESTOR_NODE_ARGS: `-r ${PROFILE_WINDOW_PRELOAD}`,
    CPU_PROFILE_DIR: out,
  });
  console.log('2. SQL statements and plans (auto_explain)');
  const sqlFile = path.join(out, 'ingest.sql.json');
  await ingestBench({
    BENCH_INGEST_PHASES: 'throughput',
    BENCH_INGEST_GRAPHS: '10',
    BENCH_INGEST_EXPLAIN: '1',
    BENCH_INGESTOR_NODE_ARGS: `-r ${CAPTURE_SQL}`,
    CAPTURE_SQL_FILE: sqlFile,
  });
  const report = [
    `# Ingestor profile ${path.basename(out)}`,
    '',
    header,
    '',
    profileMarkdown(
      'CPU: throughput phase (ingest and apply at once)',
      summariseProfile(path.join(out, 'ingest-throughput.cpuprofile')),
    ),
    profileMarkdown(
      'CPU: backlog phase, apply alone',
      summariseProfile(path.join(out, 'ingest-backlog-apply.cpuprofile')),
    ),
    sqlMarkdown('SQL ingestor', readCaptured(sqlFile), 10),
    `${new Date().toISOString()} ${loadAverage()} at end`,
  ].join('\n');
  writeFileSync(path.join(out, 'report.md'), report);
  console.log(`\nprofiles, captured SQL and ${path.join(out, 'report.md')} written`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
