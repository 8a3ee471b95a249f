/**
 * `pnpm fuzz`: the fuzz suite at scale against the BUILT services. Creates the database `gh_fuzz`,
 * starts the read API and the ingestor on 127.0.0.1, seeds a graph through the ingest endpoint,
 * then sends `--requests N` (default 100,000) fuzzed requests, half to each app, 16 at a time, and
 * prints per app: 5xx (or no answer), errors outside the envelope, answers without Request-Id,
 * answers slower than 1 s, with a few examples of each. Exits 1 when any was found.
 * Needs DATABASE_URL (a server where it may create `gh_fuzz`) and REDIS_URL; `pnpm build` first.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { createDb, migrateToLatest } from '@graph-history/db';
import { benchDatabase, dropDatabase, recreateDatabase } from '../../bench/support/bench-database';
import { freePort, startServer, stopServer } from '../../bench/support/child-server';
import { deleteRedisKeys } from '../support/redis-keys';
import { createKey } from '../ingestor/support/api-keys';
import { EventScript } from '../api/support/watch-events';
import { apiRequest, FuzzContext, FuzzRequest, ingestRequest } from './fuzz-requests';
import { sendFuzz } from './fuzz-send';
import { describeRequest, judge, Violation } from './fuzz-verdict';

const DB_NAME = 'gh_fuzz';
const CONCURRENCY = 16;
const EXAMPLES = 3;

interface Tally {
  requests: number;
  counts: Record<Violation, number>;
  examples: Record<Violation, string[]>;
  times: number[];
}

const newTally = (): Tally => ({
  requests: 0,
  counts: { '5xx': 0, 'non-envelope': 0, 'no-request-id': 0, 'over-1s': 0 },
  examples: { '5xx': [], 'non-envelope': [], 'no-request-id': [], 'over-1s': [] },
  times: [],
});

async function main(): Promise<void> {
  const requests = Number(argValue('--requests') ?? 100_000);
  const bench = benchDatabase('FUZZ_DB', DB_NAME);
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  await recreateDatabase(bench.name);
  const dbUrl = bench.url;
  const db = createDb(dbUrl, { max: 2 });
  const queuePrefix = `gh-fuzz-${randomBytes(4).toString('hex')}`;
  const children = [];
  try {
    await migrateToLatest(db);
    const keys = {
      secret: (await createKey(db, 'acme')).key,
      restricted: (await createKey(db, 'acme', ['fz'])).key,
      other: (await createKey(db, 'globex')).key,
    };
    const [apiPort, ingestPort] = [await freePort(), await freePort()];
    const api = `http://127.0.0.1:${apiPort}`;
    const ingest = `http://127.0.0.1:${ingestPort}`;
    const env = {
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      INGEST_PORT: String(ingestPort),
      QUEUE_PREFIX: queuePrefix,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
      RATE_LIMIT_PER_SECOND: '1000000000',
      RATE_LIMIT_BURST: '1000000000',
    };
    const dist = (app: string) => path.resolve(__dirname, `../../apps/${app}/dist/main.js`);
    children.push(await startServer([dist('ingestor')], env, `${ingest}/readyz`));
    children.push(await startServer([dist('api')], env, `${api}/readyz`));
    const ctx = await seed(api, ingest, keys);
    console.log(
      `fuzzing: ${requests.toLocaleString('en-US')} requests, half to each app, ${CONCURRENCY} at a time`,
    );
    const started = performance.now();
    const results = {
      api: await fuzz(api, apiRequest(ctx), Math.ceil(requests / 2)),
      ingestor: await fuzz(ingest, ingestRequest(ctx), Math.floor(requests / 2)),
    };
    const seconds = (performance.now() - started) / 1000;
    report(results, seconds);
    const found = Object.values(results).some((t) => Object.values(t.counts).some((n) => n > 0));
    process.exitCode = found ? 1 : 0;
  } finally {
    for (const c of children.reverse()) await stopServer(c);
    await db.destroy();
    await dropDatabase(bench.name);
    await deleteRedisKeys(redisUrl, queuePrefix);
  }
}

async function fuzz(
  baseUrl: string,
  arbitrary: fc.Arbitrary<FuzzRequest>,
  total: number,
): Promise<Tally> {
  const tally = newTally();
  const CHUNK = 1_000;
  for (let sent = 0; sent < total; sent += CHUNK) {
    const batch = fc.sample(arbitrary, Math.min(CHUNK, total - sent));
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < batch.length; i = next++) {
        const req = batch[i]!;
        const res = await sendFuzz(baseUrl, req);
        tally.requests++;
        tally.times.push(res.ms);
        for (const v of judge(req, res)) {
          tally.counts[v]++;
          if (tally.examples[v].length < EXAMPLES)
            tally.examples[v].push(
              `${describeRequest(req)} -> ${res.status} in ${res.ms.toFixed(0)} ms ${res.body.slice(0, 200)}`,
            );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    if ((sent + CHUNK) % 10_000 === 0)
      process.stdout.write(`  ${baseUrl}: ${(sent + CHUNK).toLocaleString('en-US')} sent\n`);
  }
  return tally;
}

function report(results: Record<string, Tally>, seconds: number): void {
  const cols = [
    'requests',
    '5xx',
    'non-envelope',
    'no Request-Id',
    'over 1 s',
    'p50 ms',
    'p99 ms',
    'max ms',
  ];
  console.log(`\n${'app'.padEnd(10)}${cols.map((c) => c.padStart(14)).join('')}`);
  for (const [app, t] of Object.entries(results)) {
    const sorted = [...t.times].sort((a, b) => a - b);
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const cells = [
      t.requests,
      t.counts['5xx'],
      t.counts['non-envelope'],
      t.counts['no-request-id'],
      t.counts['over-1s'],
      at(0.5).toFixed(1),
      at(0.99).toFixed(1),
      (sorted[sorted.length - 1] ?? 0).toFixed(0),
    ];
    console.log(`${app.padEnd(10)}${cells.map((c) => String(c).padStart(14)).join('')}`);
  }
  const total = Object.values(results).reduce((n, t) => n + t.requests, 0);
  console.log(
    `\n${total.toLocaleString('en-US')} requests in ${seconds.toFixed(0)} s (${(total / seconds).toFixed(0)}/s)`,
  );
  for (const [app, t] of Object.entries(results))
    for (const [v, examples] of Object.entries(t.examples))
      for (const e of examples) console.log(`  ${app} ${v}: ${e}`);
}

/** A graph `fz` with agents, tasks, waits and messages, ingested and applied; its ids and keys. */
async function seed(api: string, ingest: string, keys: FuzzContext['keys']): Promise<FuzzContext> {
  const s = new EventScript(Date.now() - 600_000, 100).session('fuzz-s');
  for (let i = 0; i < 20; i++) s.agent(`fuzz-s/a${i}`, i < 10 ? 'fuzz-s' : `fuzz-s/a${i - 10}`);
  s.tasks('fuzz-s/a1', [{ content: 'x', status: 'pending' }]).waitStarted('fuzz-s', ['fuzz-s/a1']);
  s.message('fuzz-s', 'fuzz-s/a2', 'hello')
    .status('fuzz-s/a3', 'idle', 'resting')
    .ended('fuzz-s/a4');
  const res = await fetch(`${ingest}/ingest/v1/graphs/fz/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.secret}` },
    body: JSON.stringify({ events: s.events }),
  });
  if (res.status !== 202) throw new Error(`seeding answered ${res.status}: ${await res.text()}`);
  const auth = { authorization: `Bearer ${keys.secret}` };
  for (const deadline = Date.now() + 20_000; ;) {
    const g = await fetch(`${api}/api/v1/graphs/gph_fz`, { headers: auth });
    if (g.status === 200 && ((await g.json()) as { counts: { nodes: number } }).counts.nodes === 21)
      break;
    if (Date.now() > deadline)
      throw new Error('the seeded graph did not become readable within 20 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const list = async (p: string) =>
    (
      (await (await fetch(`${api}${p}`, { headers: auth })).json()) as { data: { id: string }[] }
    ).data.map((d) => d.id);
  return {
    keys,
    graphId: 'gph_fz',
    graphKey: 'fz',
    nodeIds: await list('/api/v1/graphs/gph_fz/nodes'),
    eventIds: await list('/api/v1/graphs/gph_fz/events'),
  };
}

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
