/**
 * Connection bench (`pnpm bench:connections`): the hostile-client probes against the built
 * API and ingestor at their default settings. From one address (127.0.0.1) it opens IDLE_SOCKETS
 * idle connections to each app, then sends LEGIT_REQUESTS requests from another (127.0.0.2) and
 * prints how many idle sockets each app kept, how many of the other client's requests were served
 * (and their p99), and how long a client sending headers, or a body (with and without a key), one
 * byte a second waited for its 408 (targets: every request of the other client served; the 408
 * within the default timeout (10 s headers, 30 s request) + 2 s). Bounded: about 40 s. Needs DATABASE_URL (a server where it may
 * create `gh_bench_connections`) and REDIS_URL; `pnpm build`.
 */
import path from 'node:path';
import { connect, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createDb, migrateToLatest } from '@graph-history/db';
import { createKey } from '../test/ingestor/support/api-keys';
import { rawRequest } from '../test/support/raw-http';
import { benchDatabase, recreateDatabase } from './support/bench-database';
import { freePort, startServer, stopServer } from './support/child-server';

const IDLE_SOCKETS = 5_000;
const LEGIT_REQUESTS = 200;

/** Opens `n` connections from 127.0.0.1 that send nothing; resolves once all are settled. */
async function idleSockets(url: string, n: number): Promise<Socket[]> {
  const { port } = new URL(url);
  const sockets: Socket[] = [];
  for (let i = 0; i < n; i += 250) {
    await Promise.all(
      Array.from({ length: Math.min(250, n - i) }, () => {
        const s = connect({ host: '127.0.0.1', port: Number(port) });
        s.on('error', () => undefined);
        sockets.push(s);
        return new Promise((r) => {
          s.once('connect', r);
          s.once('close', r);
        });
      }),
    );
  }
  await new Promise((r) => setTimeout(r, 500));
  return sockets;
}

/** LEGIT_REQUESTS GET /healthz from 127.0.0.2, 20 at a time: served, failed, p99 ms. */
async function otherClient(url: string) {
  const ms: number[] = [];
  let failed = 0;
  const one = async () => {
    const start = performance.now();
    try {
      const r = await rawRequest(
        url,
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
        { localAddress: '127.0.0.2', timeoutMs: 5_000 },
      );
      if (r.status === 200) ms.push(performance.now() - start);
      else failed++;
    } catch {
      failed++;
    }
  };
  for (let i = 0; i < LEGIT_REQUESTS; i += 20) await Promise.all(Array.from({ length: 20 }, one));
  ms.sort((a, b) => a - b);
  const p99 = ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] ?? NaN;
  return { served: ms.length, failed, p99 };
}

/** Sends `head`, then a byte a second; the status it got and after how many seconds. */
async function slowClient(url: string, head: string, trickle: string, boundS: number) {
  const start = performance.now();
  const r = await rawRequest(url, head, { trickle, trickleMs: 1_000, timeoutMs: 60_000 }).catch(
    (e: Error) => ({ status: e.message }),
  );
  const s = (performance.now() - start) / 1000;
  const met = r.status === 408 && s <= boundS;
  return `${r.status} after ${s.toFixed(1)} s (408 within ${boundS} s: ${met ? 'PASS' : 'FAIL'})`;
}

async function main(): Promise<void> {
  const bench = benchDatabase('BENCH_CONNECTIONS_DB', 'gh_bench_connections');
  await recreateDatabase(bench.name);
  const db = createDb(bench.url, { max: 2 });
  await migrateToLatest(db);
  const { auth } = await createKey(db, 'bench');
  await db.destroy();

  const [apiPort, ingestPort] = [await freePort(), await freePort()];
  const env = {
    DATABASE_URL: bench.url,
    PORT: String(apiPort),
    INGEST_PORT: String(ingestPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    QUEUE_PREFIX: `bench-conn-${process.pid}`,
  };
  const apps = {
    api: { url: `http://127.0.0.1:${apiPort}`, main: '../apps/api/dist/main.js' },
    ingestor: { url: `http://127.0.0.1:${ingestPort}`, main: '../apps/ingestor/dist/main.js' },
  };
  const children = [];
  try {
    for (const app of Object.values(apps))
      children.push(
        await startServer([path.resolve(__dirname, app.main)], env, `${app.url}/readyz`),
      );
    const ingestHead = (key: string) =>
      `POST /ingest/v1/graphs/slow/events HTTP/1.1\r\nHost: 127.0.0.1\r\n${key}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const slow = Promise.all([
      slowClient(apps.api.url, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X'.repeat(60), 12),
      slowClient(apps.ingestor.url, ingestHead(`Authorization: ${auth}\r\n`), 'a'.repeat(100), 32),
      slowClient(apps.ingestor.url, ingestHead(''), 'a'.repeat(100), 32),
    ]);
    for (const [name, app] of Object.entries(apps)) {
      const sockets = await idleSockets(app.url, IDLE_SOCKETS);
      const kept = sockets.filter((s) => !s.destroyed && s.readyState === 'open').length;
      const other = await otherClient(app.url);
      console.log(
        `${name}: ${IDLE_SOCKETS} idle sockets from 127.0.0.1: ${kept} kept open; ` +
          `${LEGIT_REQUESTS} requests from 127.0.0.2: ${other.served} served, ${other.failed} failed, p99 ${other.p99.toFixed(1)} ms ` +
          `(all served: ${other.failed === 0 ? 'PASS' : 'FAIL'})`,
      );
      sockets.forEach((s) => s.destroy());
    }
    const [headers, keyed, keyless] = await slow;
    console.log(`API, headers at 1 byte/s: ${headers}`);
    console.log(`ingestor, body at 1 byte/s with a key: ${keyed}; without: ${keyless}`);
  } finally {
    await Promise.all(children.map(stopServer));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
