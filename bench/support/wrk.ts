import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const SCRIPT = path.resolve(__dirname, 'random-urls.lua');

/** Exits with one line saying how to install wrk when it is not on PATH. */
export function requireWrk(): void {
  if (spawnSync('wrk', ['-v']).error) {
    process.stderr.write(
      'wrk is not installed: install it with `apt-get install -y wrk` (Debian/Ubuntu) or `brew install wrk`, then run the bench again.\n',
    );
    process.exit(1);
  }
}

/** A request target: a path, optionally sent with If-None-Match. */
export interface Target {
  path: string;
  etag?: string;
}

export interface WrkRun {
  baseUrl: string;
  targets: Target[];
  connections: number;
  seconds: number;
  /** Authorization header value sent with every request. */
  auth?: string;
}

export interface WrkResult {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Socket errors, timeouts and answers with status >= 400. */
  errors: number;
  /** `errors` by kind: `429` (a status), `timeout`, `socket`; empty when there were none. */
  errorsBy: Record<string, number>;
}

interface WrkDone {
  requests: number;
  duration_us: number;
  p50_us: number;
  p90_us: number;
  p99_us: number;
  max_us: number;
  connect_errors: number;
  read_errors: number;
  write_errors: number;
  status_errors: number;
  timeouts: number;
  /** Answers by status, for statuses >= 400. */
  statuses: Record<string, number>;
}

const dir = mkdtempSync(path.join(tmpdir(), 'gh-wrk-'));
let files = 0;

/** Writes the targets as wrk's URL file (one `<path>[\t<etag>]` per line). */
function urlFile(targets: Target[]): string {
  const file = path.join(dir, `urls-${files++}.txt`);
  writeFileSync(file, targets.map((t) => (t.etag ? `${t.path}\t${t.etag}` : t.path)).join('\n'));
  return file;
}

/**
 * One wrk run (1 thread, as many connections as asked): every request is a random target.
 * wrk runs in its own process, so it never takes CPU from the measured server's event loop.
 */
export async function runWrk(run: WrkRun): Promise<WrkResult> {
  const { stdout } = await promisify(execFile)(
    'wrk',
    [
      '-t1',
      `-c${run.connections}`,
      `-d${run.seconds}s`,
      '--timeout',
      '10s',
      '-s',
      SCRIPT,
      run.baseUrl,
      '--',
      urlFile(run.targets),
      run.auth ?? '',
    ],
    { timeout: (run.seconds + 30) * 1000 },
  );
  const json = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
  if (!json) throw new Error(`wrk printed no summary:\n${stdout}`);
  const d = JSON.parse(json) as WrkDone;
  return {
    requests: d.requests,
    reqPerSec: d.requests / (d.duration_us / 1e6),
    p50Ms: d.p50_us / 1000,
    p90Ms: d.p90_us / 1000,
    p99Ms: d.p99_us / 1000,
    maxMs: d.max_us / 1000,
    errors: d.connect_errors + d.read_errors + d.write_errors + d.status_errors + d.timeouts,
    errorsBy: errorsBy(d),
  };
}

function errorsBy(d: WrkDone): Record<string, number> {
  const socket = d.connect_errors + d.read_errors + d.write_errors;
  const by: Record<string, number> = { ...d.statuses };
  if (d.timeouts) by.timeout = d.timeouts;
  if (socket) by.socket = socket;
  return by;
}
