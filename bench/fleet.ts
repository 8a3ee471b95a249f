/**
 * Fleet benchmark (`pnpm bench:fleet`): starts the fleet of `pnpm fleet` (everything on 127.0.0.1)
 * and measures, through HAProxy, node reads with one, two and three API replicas behind it
 * (requests/s, p99 and the ratio to one replica: on a small machine the ratio, not the absolute,
 * is the figure), then the streaming replica's lag while 5,000 events/s are ingested.
 * Needs the Postgres server binaries, redis-server and haproxy; run `pnpm build` first.
 */
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { simulate } from '@graph-history/simulator';
import { startFleet, Fleet } from '../apps/cli/src/fleet/fleet';
import { freePort } from '../apps/cli/src/fleet/free-port';
import { startHaproxy } from '../apps/cli/src/fleet/haproxy';
import { IngestClient } from '../apps/cli/src/ingest-client';

const READ_SECONDS = 8;
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 24;
const INGEST_RATE = 5_000;
const INGEST_SECONDS = 15;
const INGEST_GRAPHS = 10;
const TICK_MS = 500;
const SAMPLE_MS = 100;

async function main(): Promise<void> {
  console.log(`${cpus().length} cores, load average at start: ${loadAverage()}`);
  const fleet = await startFleet({
    apiPort: await freePort(),
    ingestPort: await freePort(),
    apis: 3,
    ingestors: 2,
    env: {
      PATH: process.env.PATH,
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      INGEST_EVENTS_PER_SECOND: '1000000',
      INGEST_EVENTS_BURST: '1000000',
    },
  });
  try {
    const paths = await seedReads(fleet);
    await readScaling(fleet, paths);
    await replicaLag(fleet);
  } finally {
    await fleet.stop();
  }
  console.log(`load average at end: ${loadAverage()}`);
}

/** One graph of 2,000 simulated events; the paths of its node reads. */
async function seedReads(fleet: Fleet): Promise<string[]> {
  const graph = simulate({
    graphs: 1,
    events: 2_000,
    seed: 'bench-fleet',
    graphKeyPrefix: 'bf',
  })[0]!;
  const client = new IngestClient({ url: fleet.ingestUrl, key: fleet.key });
  for (let i = 0; i < graph.events.length; i += 1_000)
    await client.send(graph.graphKey, graph.events.slice(i, i + 1_000));
  const id = `gph_${graph.graphKey}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const res = await fetch(`${fleet.apiUrl}/api/v1/graphs/${id}/nodes?limit=100`, {
      headers: { authorization: `Bearer ${fleet.key}` },
    });
    const body = (await res.json()) as { data?: { id: string }[]; as_of_event_id?: string };
    if (body.data && body.data.length >= 20)
      return body.data.map((n) => `/api/v1/graphs/${id}/nodes/${n.id}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the benchmark graph was not readable within 60 s');
}

async function readScaling(fleet: Fleet, paths: string[]): Promise<void> {
  const ports = [await freePort(), await freePort(), await freePort()];
  const balancer = await startHaproxy(
    fleet.dir,
    ports.map((port, i) => ({
      name: `replicas-${i + 1}`,
      port,
      servers: fleet.apiPorts.slice(0, i + 1),
    })),
    'bench-haproxy',
  );
  try {
    await new Promise((r) => setTimeout(r, 1_500)); // first health checks
    const results: { replicas: number; rps: number; p99: number }[] = [];
    for (const [i, port] of ports.entries()) {
      const run = (duration: number) =>
        autocannon({
          url: `http://127.0.0.1:${port}`,
          connections: CONNECTIONS,
          duration,
          headers: { authorization: `Bearer ${fleet.key}` },
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                path: paths[Math.floor(Math.random() * paths.length)]!,
              }),
            },
          ],
        });
      process.stdout.write(`node reads through HAProxy, ${i + 1} API replica(s) ... `);
      await run(WARM_UP_SECONDS);
      const r = await run(READ_SECONDS);
      const failed = r.non2xx + r.errors;
      const codes = Object.entries(r.statusCodeStats ?? {})
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, { count }]) => `${count} × ${code}`);
      results.push({ replicas: i + 1, rps: r.requests.average, p99: r.latency.p99 });
      console.log(
        `${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms` +
          (failed ? ` (NOT ALL 2xx: ${[...codes, `${r.errors} errors`].join(', ')})` : ''),
      );
    }
    console.log('\nreplicas  req/s   p99 ms  ratio to one replica');
    for (const r of results)
      console.log(
        `${String(r.replicas).padStart(8)}  ${r.rps.toFixed(0).padStart(6)}  ${String(r.p99).padStart(6)}  ${(r.rps / results[0]!.rps).toFixed(2)}`,
      );
  } finally {
    await balancer.stop(5_000);
  }
}

/**
 * Offers INGEST_RATE events/s through HAProxy's ingest port: every TICK_MS, one batch per graph
 * (INGEST_GRAPHS graphs, each graph's batches in order, the graphs concurrently). Meanwhile samples
 * the streaming replica's lag every SAMPLE_MS: WAL bytes (primary's current LSN minus the
 * replica's replayed LSN) and time (`now() - pg_last_xact_replay_timestamp()` on the replica,
 * 0 when it has replayed everything).
 */
async function replicaLag(fleet: Fleet): Promise<void> {
  const primary = new Client({ connectionString: fleet.postgres.primaryUrl });
  const replica = new Client({ connectionString: fleet.postgres.replicaUrl });
  await Promise.all([primary.connect(), replica.connect()]);
  const ticks = (INGEST_SECONDS * 1000) / TICK_MS;
  const perBatch = Math.round((INGEST_RATE * TICK_MS) / 1000 / INGEST_GRAPHS);
  const graphs = simulate({
    graphs: INGEST_GRAPHS,
    events: perBatch * ticks,
    seed: 'bench-lag',
    graphKeyPrefix: 'lag',
  });
  const client = new IngestClient({ url: fleet.ingestUrl, key: fleet.key });
  const samples: { bytes: number; ms: number }[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const [{ rows: p }, { rows: r }] = await Promise.all([
        primary.query<{ lsn: string }>('select pg_current_wal_lsn() as lsn'),
        replica.query<{ lsn: string; ms: number | null }>(
          `select pg_last_wal_replay_lsn() as lsn,
                  extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000 as ms`,
        ),
      ]);
      const { rows } = await primary.query<{ bytes: string }>(
        'select pg_wal_lsn_diff($1, $2) as bytes',
        [p[0]!.lsn, r[0]!.lsn],
      );
      const bytes = Math.max(0, Number(rows[0]!.bytes));
      // a replica that replayed everything is not behind, however old its last transaction
      samples.push({ bytes, ms: bytes === 0 ? 0 : Number(r[0]!.ms ?? 0) });
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  process.stdout.write(
    `\noffering ${INGEST_RATE} events/s for ${INGEST_SECONDS} s through HAProxy to ${fleet.ingestors.length} ingestors (${INGEST_GRAPHS} graphs, a batch of ${perBatch} per graph every ${TICK_MS} ms) ... `,
  );
  const started = Date.now();
  let accepted = 0;
  const chains: Promise<unknown>[] = graphs.map(() => Promise.resolve());
  for (let tick = 0; tick < ticks; tick++) {
    const due = started + tick * TICK_MS;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    graphs.forEach((g, i) => {
      const batch = g.events.slice(tick * perBatch, (tick + 1) * perBatch);
      // a graph's batch waits for its previous one: a slow ingest shows as a lower achieved rate
      chains[i] = chains[i]!.then(async () => {
        const { accepted: stored } = await client.send(g.graphKey, batch);
        accepted += stored;
      });
    });
  }
  await Promise.all(chains);
  const sendSeconds = (Date.now() - started) / 1000;
  console.log(`done in ${sendSeconds.toFixed(1)} s`);
  console.log(
    `achieved ingest: ${(accepted / sendSeconds).toFixed(0)} events/s accepted (${accepted} events)`,
  );
  const applyStarted = Date.now();
  for (;;) {
    const { rows } = await primary.query<{ behind: string }>(
      `select coalesce(sum(ingested_seq - applied_seq), 0) as behind from graphs where graph_key like 'lag-%'`,
    );
    if (Number(rows[0]!.behind) === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const appliedSeconds = (Date.now() - started) / 1000;
  console.log(
    `all applied ${((Date.now() - applyStarted) / 1000).toFixed(1)} s after the last batch was accepted (${(accepted / appliedSeconds).toFixed(0)} events/s applied end to end)`,
  );
  sampling = false;
  await sampler;
  await Promise.all([primary.end(), replica.end()]);
  const pct = (xs: number[], p: number) =>
    xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;
  const sorted = (pick: (x: (typeof samples)[number]) => number) =>
    samples.map(pick).sort((a, b) => a - b);
  const bytes = sorted((x) => x.bytes);
  const ms = sorted((x) => x.ms);
  const kib = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
  console.log(
    `replica lag over the run (${samples.length} samples every ${SAMPLE_MS} ms):\n` +
      `  WAL bytes behind (primary LSN - replayed LSN): p50 ${kib(pct(bytes, 50))}, p99 ${kib(pct(bytes, 99))}, max ${kib(bytes.at(-1) ?? 0)}\n` +
      `  now() - pg_last_xact_replay_timestamp():       p50 ${pct(ms, 50).toFixed(0)} ms, p99 ${pct(ms, 99).toFixed(0)} ms, max ${(ms.at(-1) ?? 0).toFixed(0)} ms`,
  );
}

const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
