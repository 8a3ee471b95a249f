import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort, startServer } from './child-server';

export interface Latencies {
  p50: number;
  p99: number;
  max: number;
  count: number;
  non2xx: number;
}

/** `rate` requests a second for `seconds`, each sent on schedule (open loop). */
export async function lightLoad(
  url: string,
  key: string,
  paths: string[],
  seconds: number,
  rate: number,
): Promise<Latencies> {
  const times: number[] = [];
  let non2xx = 0;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  const total = rate * seconds;
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sent = performance.now();
    pending.push(
      fetch(`${url}${paths[i % paths.length]}`, { headers: { authorization: `Bearer ${key}` } })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status !== 200) non2xx++;
          times.push(performance.now() - sent);
        })
        .catch(() => void non2xx++),
    );
  }
  await Promise.all(pending);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return {
    p50: at(0.5),
    p99: at(0.99),
    max: times[times.length - 1] ?? NaN,
    count: times.length,
    non2xx,
  };
}

/** The built API on a free port of 127.0.0.1, on `databaseUrl`, with `env` on top. */
export async function startApi(
  databaseUrl: string,
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startServer(
    [path.resolve(__dirname, '../../apps/api/dist/main.js')],
    { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    `${url}/readyz`,
  );
  return { url, child };
}

export interface HammerCounts {
  served: number;
  refused: number;
  bytes: number;
}

/**
 * Runs `measure` while fairness-hammer (its own process) sends `paths` with each of `keys` over
 * `connections` loops per key, started 2 s before; what the hammer was served.
 */
export async function withHammer(
  url: string,
  keys: string[],
  paths: string[],
  measure: () => Promise<Latencies>,
  connections = 4,
): Promise<{ light: Latencies; heavy: HammerCounts }> {
  const child = spawn(
    process.execPath,
    ['-r', path.resolve(__dirname, '../ts-hook.js'), path.resolve(__dirname, 'fairness-hammer.ts')],
    {
      env: {
        ...process.env,
        HAMMER_BASE_URL: url,
        HAMMER_KEYS: keys.join(','),
        HAMMER_PATHS: paths.join(','),
        HAMMER_CONNECTIONS: String(connections),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  await new Promise((r) => setTimeout(r, 2_000)); // the hammer reaches its quota
  const light = await measure();
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return { light, heavy: JSON.parse(out.trim() || '{"served":0,"refused":0,"bytes":0}') };
}
