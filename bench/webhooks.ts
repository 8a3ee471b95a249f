/**
 * Webhooks benchmark (`pnpm bench:webhooks`): the built ingestor (HTTP + workers) against a fresh
 * database and a real HTTP receiver on 127.0.0.1, one endpoint.
 *
 * 1. Notice -> received: NOTICES notices, RATE a second. Each is written to `notices` (as the
 *    apply writes it) and then one event is ingested, so the apply that follows kicks the
 *    webhooks job as it does after a commit with notices: the time includes that ingest and apply
 *    (an upper bound of the path from a notice's commit). Prints p50/p99/max.
 * 2. Down then back: the receiver stops, DOWN_NOTICES notices are made over DOWN_SECONDS (10
 *    minutes by default), it starts again; prints whether every notice was delivered and how many
 *    reached it twice after a 2xx. The retry schedule is SHORTENED for this (to about 11 minutes,
 *    BENCH_WEBHOOKS_SCHEDULE), so that it ends within minutes of the receiver's return; the output
 *    says so.
 *
 * Needs DATABASE_URL (a server where it may create and drop `gh_bench_webhooks`) and REDIS_URL.
 * BENCH_WEBHOOKS_* variables change the sizes.
 */
import { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { webhooks } from '@graph-history/client';
import { createDb, Db, migrateToLatest } from '@graph-history/db';
import { createKey } from '../test/ingestor/support/api-keys';
import { percentile } from '../test/ingestor/support/steady-load';
import { validRun } from '../test/ingestor/support/watch-events';
import { insertEndpoint, insertNotice, WebhookReceiver } from '../test/support/webhooks';
import { benchDatabase, dropDatabase, recreateDatabase } from './support/bench-database';
import { freePort, startServer, stopServer } from './support/child-server';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_WEBHOOKS_${name}`] ?? fallback);
const NOTICES = setting('NOTICES', 300);
const RATE = setting('RATE', 10);
const DOWN_SECONDS = setting('DOWN_SECONDS', 600);
const DOWN_NOTICES = setting('DOWN_NOTICES', 200);
const SCHEDULE =
  process.env.BENCH_WEBHOOKS_SCHEDULE ??
  '1s,2s,4s,8s,15s,30s,60s,60s,60s,60s,60s,60s,60s,60s,60s,60s,60s';
const BENCH_DB = 'gh_bench_webhooks';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const bench = benchDatabase('BENCH_WEBHOOKS_DB', BENCH_DB);
  await recreateDatabase(bench.name);
  const db = createDb(bench.url, { max: 4 });
  const receiver = new WebhookReceiver();
  let ingestor: ChildProcess | undefined;
  try {
    await migrateToLatest(db);
    const owner = await createKey(db, 'bench');
    await receiver.start();
    const { secret } = await insertEndpoint(db, { accountId: owner.accountId, url: receiver.url });
    const port = await freePort();
    ingestor = await startServer(
      [path.resolve(__dirname, '../apps/ingestor/dist/main.js')],
      {
        DATABASE_URL: bench.url,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        INGEST_PORT: String(port),
        QUEUE_PREFIX: 'gh-bench-webhooks',
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
      },
      `http://127.0.0.1:${port}/readyz`,
    );
    const graphs = new EventFeed(db, `http://127.0.0.1:${port}`, owner.auth, owner.accountId);
    await graphs.start();

    // 1. notice -> received
    const madeAt = new Map<string, number>();
    for (let i = 0; i < NOTICES; i++) {
      const next = Date.now() + 1000 / RATE;
      const n = await graphs.notice();
      madeAt.set(n.id, n.at);
      await graphs.ingestOne();
      await sleep(Math.max(0, next - Date.now()));
    }
    await waitUntil(() => receiver.delivered().length >= NOTICES, 30_000);
    const firstArrival = new Map<string, number>();
    for (const r of receiver.received) {
      const id = String(r.headers['graphhistory-notice-id']);
      if (!firstArrival.has(id)) firstArrival.set(id, r.at);
    }
    const latencies = [...madeAt]
      .map(([id, at]) => firstArrival.get(id)! - at)
      .sort((a, b) => a - b);
    let verified = 0;
    for (const r of receiver.received)
      await webhooks.verify(r.rawBody, String(r.headers['graphhistory-signature']), secret).then(
        () => verified++,
        () => undefined,
      );
    console.log(
      `notice -> received (${NOTICES} notices at ${RATE}/s, each followed by one ingested event): ` +
        `p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms; ` +
        `${firstArrival.size}/${NOTICES} received, ${verified}/${receiver.received.length} signatures verified`,
    );

    // 2. receiver down, then back
    const before = receiver.received.length;
    await receiver.stop();
    const downIds: string[] = [];
    const downStart = Date.now();
    for (let i = 0; i < DOWN_NOTICES; i++) {
      downIds.push((await graphs.notice()).id);
      await graphs.ingestOne();
      await sleep(
        Math.max(0, downStart + ((i + 1) * DOWN_SECONDS * 1000) / DOWN_NOTICES - Date.now()),
      );
    }
    await receiver.start();
    const backAt = Date.now();
    const allIn = await waitUntil(
      () => downIds.every((id) => receiver.delivered().includes(id)),
      120_000,
    );
    const drainedMs = Date.now() - backAt;
    await sleep(5_000); // anything sent twice would arrive now
    const okCounts = new Map<string, number>();
    for (const id of receiver.delivered()) okCounts.set(id, (okCounts.get(id) ?? 0) + 1);
    const twice = [...okCounts.values()].filter((c) => c > 1).length;
    const attempts = await db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `down then back (receiver down ${DOWN_SECONDS} s, ${DOWN_NOTICES} notices meanwhile; ` +
        `retry schedule SHORTENED to ${SCHEDULE} for this run, default ~3 days): ` +
        `${downIds.filter((id) => okCounts.has(id)).length}/${DOWN_NOTICES} delivered` +
        `${allIn ? ` within ${drainedMs} ms of coming back` : ' (NOT all within 120 s)'}, ` +
        `${twice} notices received twice after a 2xx; ${receiver.received.length - before} requests answered, ${attempts.n} attempts recorded in all`,
    );
  } finally {
    if (ingestor) await stopServer(ingestor);
    await receiver.stop();
    await db.destroy();
    await dropDatabase(bench.name);
  }
}

/** Makes notices and ingests one event after each, so that an apply follows (and kicks). */
class EventFeed {
  private readonly events = validRun('bench', NOTICES + DOWN_NOTICES + 1);
  private sent = 0;
  private graphId = 0;

  constructor(
    private readonly db: Db,
    private readonly baseUrl: string,
    private readonly auth: string,
    private readonly accountId: number,
  ) {}

  async start(): Promise<void> {
    await this.ingestOne();
    const row = await this.db
      .selectFrom('graphs')
      .select('graph_id')
      .where('graph_key', '=', 'bench')
      .executeTakeFirstOrThrow();
    this.graphId = row.graph_id;
  }

  async notice(): Promise<{ id: string; at: number }> {
    const n = await insertNotice(this.db, {
      accountId: this.accountId,
      graphId: this.graphId,
      type: 'node.input_required',
    });
    return { id: n.id, at: Date.now() };
  }

  async ingestOne(): Promise<void> {
    const res = await fetch(`${this.baseUrl}/ingest/v1/graphs/bench/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: this.auth },
      body: JSON.stringify({ events: [this.events[this.sent++]] }),
    });
    if (res.status !== 202) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(20))
    if (check()) return true;
  return check();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
