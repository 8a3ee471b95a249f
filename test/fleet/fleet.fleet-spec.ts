import { Client } from 'pg';
import { GraphHistory } from '@graph-history/client';
import { eventId } from '@graph-history/domain';
import { createDb, loadIdKey } from '@graph-history/db';
import { simulate } from '@graph-history/simulator';
import { Fleet, startFleet } from '@graph-history/cli/fleet/fleet';
import { CHECK_FALL, CHECK_INTER_MS } from '@graph-history/cli/fleet/haproxy';
import { CLUSTER_NODE_TIMEOUT_MS } from '@graph-history/cli/fleet/redis-cluster';
import { IngestClient } from '@graph-history/cli/ingest-client';
import type { ChildService } from '@graph-history/cli/start/child-service';
import { freePort } from '../support/free-port';
import { expectAppliedOnce } from '../ingestor/support/expect-applied-once';
import { noticeRun, NOTICE_RUN_NOTICES } from '../support/notice-events';
import { waitFor } from '../ingestor/support/ingestor-harness';
import { masterOfHealthyCluster, queueEvents, slotOwner } from './support/cluster-topology';
import { FleetAdmin, get, metric, replicaUrls } from './support/fleet-client';

const RATE = { perSecond: 20, burst: 60 };
const METRICS_TOKEN = 'fleet-test-metrics-token';
/** The ingestor's BullMQ keys are `{QUEUE_PREFIX}:…` (set to this for the fleet): one slot of the cluster. */
const QUEUE_HASH_TAG = 'gh';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A whole fleet (`startFleet`, what `pnpm fleet` runs): Postgres primary + streaming replica,
 * a Redis Cluster of 3 masters + 3 replicas, 2 ingestors, 3 API replicas behind HAProxy. Shared state first, then
 * faults (each kills a process for good, so they come last).
 */
describe('fleet', () => {
  let fleet: Fleet;
  let admin: FleetAdmin;
  /** Servers started again after a fault: not in the fleet's own list, stopped here. */
  const restarted: ChildService[] = [];
  const graph = simulate({ graphs: 1, events: 400, seed: 'fleet', graphKeyPrefix: 'fleet' })[0]!;

  beforeAll(async () => {
    fleet = await startFleet({
      apiPort: await freePort(),
      ingestPort: await freePort(),
      env: {
        PATH: process.env.PATH,
        QUEUE_PREFIX: QUEUE_HASH_TAG,
        RATE_LIMIT_PER_SECOND: String(RATE.perSecond),
        RATE_LIMIT_BURST: String(RATE.burst),
        METRICS_TOKEN,
      },
    });
    admin = new FleetAdmin(fleet);
    // the fleet's database has its own id key (migration 0012), not the template's
    const db = createDb(fleet.postgres.primaryUrl, { max: 1 });
    await loadIdKey(db).finally(() => db.destroy());
    await new IngestClient({ url: fleet.ingestUrl, key: fleet.key }).send(
      graph.graphKey,
      graph.events,
    );
    await admin.appliedThrough(graph.graphKey, graph.events.length, 30_000);
    await replayed(fleet);
  }, 120_000);

  afterAll(async () => {
    await admin?.close();
    const pids = [...(fleet?.processes() ?? []), ...restarted].map((p) => p.pid);
    await Promise.all(restarted.map((s) => s.stop(5_000)));
    await fleet?.stop();
    // nothing of the fleet is left running
    for (const pid of pids ?? []) expect(alive(pid!)).toBe(false);
  }, 60_000);

  it('serves through HAProxy and answers equal ETags on every replica for the same state', async () => {
    const path = `/api/v1/graphs/gph_${graph.graphKey}/nodes?limit=20&order=tree&expand[]=data.children`;
    const viaBalancer = await get(fleet.apiUrl, path, fleet.key);
    expect(viaBalancer.status).toBe(200);
    // one after the other: reads of a key in flight together share its tokens, and an expansion
    // holding fewer of them ends its page sooner (another body, another ETag)
    const answers = [];
    for (const u of replicaUrls(fleet)) answers.push(await get(u, path, fleet.key));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.etag)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers[0]!.etag).toBe(viaBalancer.etag);
  });

  it('takes a cursor from one replica on another', async () => {
    const [a, b, c] = replicaUrls(fleet);
    const base = `/api/v1/graphs/gph_${graph.graphKey}/events?limit=7`;
    const first = JSON.parse((await get(a!, base, fleet.key)).body);
    const cursor = first.data.at(-1).id as string;
    const next = [
      await get(b!, `${base}&starting_after=${cursor}`, fleet.key),
      await get(c!, `${base}&starting_after=${cursor}`, fleet.key),
    ];
    expect(next.map((n) => n.status)).toEqual([200, 200]);
    // the key's bucket runs low after the tests before (rates are lowered here): a page holds
    // what the tokens it could hold pay for, so one may end early, and then it is the other's start
    const [short, long] = next
      .map((n) => JSON.parse(n.body))
      .sort((x, y) => x.data.length - y.data.length);
    expect(short.data.length).toBeGreaterThanOrEqual(1);
    expect(long.data.slice(0, short.data.length)).toEqual(short.data);
    for (const page of [short, long]) {
      expect(page.data.length === 7 || page.has_more).toBe(true);
      expect(page.data[0].id).not.toBe(cursor);
    }
  });

  it('gives a key its quota once across the replicas, not once per replica', async () => {
    const { key } = await admin.newKey();
    const started = Date.now();
    const statuses: number[] = [];
    // three times the bucket, 12 at a time, spread by HAProxy over the 3 replicas
    for (let i = 0; i < 15; i++) {
      const round = await Promise.all(
        Array.from({ length: 12 }, () => get(fleet.apiUrl, '/api/v1/graphs?limit=1', key)),
      );
      statuses.push(...round.map((r) => r.status));
    }
    const seconds = (Date.now() - started) / 1000;
    const allowed = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(allowed).toBeGreaterThanOrEqual(RATE.burst - 6);
    // the bucket plus what refilled meanwhile; a bucket per replica would allow 3 × 60
    expect(allowed).toBeLessThanOrEqual(RATE.burst + Math.ceil(seconds * RATE.perSecond) + 1);
  });

  it('stops a revoked key on every replica within 5 seconds', async () => {
    const { key, id } = await admin.newKey();
    const replicas = replicaUrls(fleet);
    for (const r of replicas)
      expect((await get(r, '/api/v1/graphs?limit=1', key)).status).toBe(200);
    await admin.keys.revoke(id);
    const revoked = Date.now();
    const refusedAfter = await Promise.all(
      replicas.map((r) =>
        waitFor(
          '401',
          async () =>
            (await get(r, '/api/v1/graphs?limit=1', key)).status === 401 && Date.now() - revoked,
          8_000,
        ),
      ),
    );
    for (const ms of refusedAfter) expect(ms).toBeLessThanOrEqual(5_000 + 500);
  });

  it('applies every event exactly once when an ingestor is killed mid-stream', async () => {
    const run = simulate({
      graphs: 1,
      events: 3_000,
      seed: 'fleet-kill',
      graphKeyPrefix: 'fleet-kill',
    })[0]!;
    const client = new IngestClient({ url: fleet.ingestUrl, key: fleet.key, baseDelayMs: 100 });
    for (let i = 0; i < run.events.length; i += 100) {
      if (i === 1_000) fleet.ingestors[0]!.signal('SIGKILL');
      await client.send(run.graphKey, run.events.slice(i, i + 100));
    }
    expect(fleet.ingestors[0]!.running).toBe(false);
    await admin.appliedThrough(run.graphKey, run.events.length, 60_000);
    await expectAppliedOnce(admin.db, run.graphKey, run.events);
  });

  it('fails over when the Redis master of the queues dies under ingest, losing nothing acknowledged', async () => {
    const run = simulate({
      graphs: 1,
      events: 2_000,
      seed: 'fleet-redis',
      graphKeyPrefix: 'fleet-redis',
    })[0]!;
    const before = (await slotOwner(fleet.redis.ports[0]!, QUEUE_HASH_TAG))!;
    expect(before.replicas).toHaveLength(1);
    const [master, replica] = [before.master, before.replicas[0]!];
    const onMaster = await keyWithBucketOn(admin, master);
    const retries: string[] = [];
    const client = new IngestClient({
      url: fleet.ingestUrl,
      key: fleet.key,
      baseDelayMs: 100,
      onRetry: (n) => retries.push(n.reason),
    });
    let killedAt = 0;
    const outageReads: Promise<number>[] = [];
    const sending = (async () => {
      for (let i = 0; i < run.events.length; i += 50) {
        if (i === 300) {
          killedAt = Date.now();
          fleet.redis.servers[fleet.redis.ports.indexOf(master)]!.signal('SIGKILL');
        }
        if (killedAt)
          for (const url of replicaUrls(fleet))
            outageReads.push(get(url, '/api/v1/graphs?limit=1', onMaster).then((r) => r.status));
        await client.send(run.graphKey, run.events.slice(i, i + 50));
        await sleep(100);
      }
    })();
    // the replica is promoted once the master is silent for the node timeout, and serves the queues
    const promotedAfter = await waitFor(
      'the replica promoted',
      async () => (await masterOfHealthyCluster(replica)) && Date.now() - killedAt,
      CLUSTER_NODE_TIMEOUT_MS + 15_000,
    );
    expect(promotedAfter).toBeGreaterThan(0);
    // reads went on meanwhile (rate limits per process while the bucket's master was gone)
    for (const status of await Promise.all(outageReads)) expect(status).toBe(200);
    expect((await slotOwner(replica, QUEUE_HASH_TAG))!.master).toBe(replica);
    await sending; // every batch acknowledged (the client retried what was refused meanwhile)
    await admin.appliedThrough(run.graphKey, run.events.length, 60_000);
    await expectAppliedOnce(admin.db, run.graphKey, run.events);

    // the clients follow the promoted master: the ingestors' queue workers complete jobs on it…
    const stream = `{${QUEUE_HASH_TAG}}:apply:events`;
    const { newestId } = await queueEvents(replica, stream, null);
    const more = simulate({
      graphs: 1,
      events: 100,
      seed: 'fleet-redis-2',
      graphKeyPrefix: 'frd',
    })[0]!;
    await client.send(more.graphKey, more.events);
    await admin.appliedThrough(more.graphKey, more.events.length, 30_000);
    await waitFor('an apply job completed on the promoted master', async () =>
      (await queueEvents(replica, stream, newestId)).events.includes('completed'),
    );
    // …and every API replica, degraded while the key's bucket was unreachable, counts in Redis again
    const insurance = 'graph_history_api_rate_limit_insurance_decisions_total';
    for (const url of replicaUrls(fleet)) {
      expect(await metric(url, insurance, METRICS_TOKEN)).toBeGreaterThan(0);
      await waitFor(
        `${url} rate limits back in Redis`,
        async () => {
          await get(url, '/api/v1/graphs?limit=1', onMaster);
          return (await metric(url, 'graph_history_api_rate_limit_degraded', METRICS_TOKEN)) === 0;
        },
        10_000,
      );
    }
    expect(retries.length).toBeLessThan(30); // degraded for seconds, not for the whole run
  });

  it('never answers an older state as_of an event the paused replica has not replayed', async () => {
    const replica = new Client({ connectionString: fleet.postgres.replicaUrl });
    await replica.connect();
    try {
      await replica.query('select pg_wal_replay_pause()');
      const more = simulate({
        graphs: 1,
        events: 460,
        seed: 'fleet',
        graphKeyPrefix: 'fleet',
      })[0]!.events.slice(400);
      await new IngestClient({ url: fleet.ingestUrl, key: fleet.key }).send(graph.graphKey, more);
      const g = await admin.appliedThrough(graph.graphKey, 460);
      const newest = eventId(g.graph_id, 460);
      const { rows } = await replica.query<{ applied_seq: number }>(
        'select applied_seq from graphs where graph_id = $1',
        [g.graph_id],
      );
      expect(Number(rows[0]!.applied_seq)).toBeLessThan(460); // the replica really is behind
      const base = `/api/v1/graphs/gph_${graph.graphKey}`;
      for (const r of replicaUrls(fleet)) {
        // now: may be as old as the replica's lag, and says so
        const now = JSON.parse((await get(r, base, fleet.key)).body);
        expect(now.as_of_event_id).toBe(eventId(g.graph_id, Number(rows[0]!.applied_seq)));
        // as_of the event the client saw on the primary: that state, never a 404 or an older one
        const asOf = await get(r, `${base}?as_of=${newest}`, fleet.key);
        expect(asOf.status).toBe(200);
        expect(JSON.parse(asOf.body).as_of_event_id).toBe(newest);
        const events = await get(r, `${base}/events?limit=5&as_of=${newest}`, fleet.key);
        expect(JSON.parse(events.body).data[0].id).toBe(newest);
        const time = await get(r, `${base}?as_of=${Date.now()}`, fleet.key);
        expect(JSON.parse(time.body).as_of_event_id).toBe(newest);
      }
    } finally {
      await replica.query('select pg_wal_replay_resume()');
      await replica.end();
    }
  });

  it('reads from the primary once the replica is stopped', async () => {
    const { key } = await admin.newKey();
    await fleet.postgres.replica.stop(20_000, 'SIGINT');
    await new Promise((r) => setTimeout(r, 1_500)); // the APIs' replica health check
    const base = `/api/v1/graphs/gph_${graph.graphKey}`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => get(fleet.apiUrl, `${base}/nodes?limit=5`, key)),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  });

  it('answers no 5xx once the health check of a killed API replica has failed', async () => {
    const keys = await Promise.all(Array.from({ length: 10 }, () => admin.newKey()));
    const results: { at: number; status: number }[] = [];
    const until = Date.now() + 6_000;
    const killAt = Date.now() + 1_500;
    const path = `/api/v1/graphs/gph_${graph.graphKey}/nodes?limit=10`;
    const worker = async (w: number) => {
      for (let n = 0; Date.now() < until; n++) {
        const key = keys[(w + n) % keys.length]!.key;
        const status = await get(fleet.apiUrl, path, key).then(
          (r) => r.status,
          () => 0,
        );
        results.push({ at: Date.now(), status });
      }
    };
    const killer = new Promise<void>((resolve) =>
      setTimeout(() => {
        fleet.apis[0]!.signal('SIGKILL');
        resolve();
      }, killAt - Date.now()),
    );
    await Promise.all([killer, ...Array.from({ length: 8 }, (_, w) => worker(w))]);
    const detected = killAt + CHECK_INTER_MS * CHECK_FALL + 500;
    const after = results.filter((r) => r.at > detected);
    expect(after.length).toBeGreaterThan(50);
    expect(after.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    // and before it, HAProxy's retry on a refused connection hid the dead replica too
    expect(results.filter((r) => r.status >= 500 || r.status === 0).length).toBeLessThanOrEqual(8);
  });

  // after the test above, apis[0] is dead: HAProxy balances over the other two
  it('keeps event and notice streams through HAProxy across a killed replica: all once, in order', async () => {
    const { key } = await admin.newKey();
    const client = new GraphHistory({ apiKey: key, baseUrl: fleet.apiUrl });
    const ingest = new IngestClient({ url: fleet.ingestUrl, key: fleet.key, baseDelayMs: 100 });
    const run = simulate({ graphs: 1, events: 600, seed: 'fleet-sse', graphKeyPrefix: 'fsse' })[0]!;
    await ingest.send(run.graphKey, run.events.slice(0, 100));
    const g = await admin.appliedThrough(run.graphKey, 100);
    const noticeRuns = [0, 1, 2].map((i) => noticeRun(`fsse${i}`, 1_763_000_000_000 + i * 1_000));
    // the notices' graph exists before its streams filter by it (its first event makes none)
    await ingest.send('fsse-notices', noticeRuns[0]!.slice(0, 1));
    await admin.appliedThrough('fsse-notices', 1);
    const abort = new AbortController();
    const events: string[][] = [];
    const notices: string[][] = [];
    const reading: Promise<void>[] = [];
    const openEvents = () => {
      const got: string[] = [];
      events.push(got);
      const it = client.events.stream(`gph_${run.graphKey}`, {
        after: eventId(g.graph_id, 100),
        signal: abort.signal,
      });
      reading.push(
        (async () => {
          for await (const e of it) got.push(e.object === 'event' ? e.id : e.object);
        })(),
      );
    };
    const openNotices = () => {
      const got: string[] = [];
      notices.push(got);
      const it = client.notices.stream({ graph: 'gph_fsse-notices', signal: abort.signal });
      reading.push(
        (async () => {
          for await (const n of it) got.push(n.object === 'notice' ? n.id : n.object);
        })(),
      );
    };
    const gauge = (url: string, kind: string) =>
      get(url, '/metrics', METRICS_TOKEN).then((r) => {
        const line = r.body
          .split('\n')
          .find((l) => l.startsWith(`graph_history_api_streams_open{kind="${kind}"}`));
        return line ? Number(line.split(' ').pop()) : 0;
      });
    const live = fleet.apis.flatMap((a, i) => (a.running ? [i] : []));
    const urls = replicaUrls(fleet);
    const streamsOn = async (kind: string) => Promise.all(live.map((i) => gauge(urls[i]!, kind)));
    // an event stream, then notice streams until the replica holding it holds one of them too
    openEvents();
    await waitFor('the event stream open', async () =>
      (await streamsOn('events')).some((n) => n > 0),
    );
    const victim = (await streamsOn('events')).findIndex((n) => n > 0);
    for (let i = 0; i < 6 && (await streamsOn('notices'))[victim] === 0; i++) {
      openNotices();
      await waitFor(
        'the notice stream open',
        async () => (await streamsOn('notices')).reduce((a, b) => a + b) === notices.length,
      );
    }
    expect((await streamsOn('notices'))[victim]).toBeGreaterThan(0);

    const sendNotices = (i: number) => ingest.send('fsse-notices', noticeRuns[i]!);
    for (let i = 100; i < 300; i += 50)
      await ingest.send(run.graphKey, run.events.slice(i, i + 50));
    await sendNotices(0);
    await waitFor(
      'streams under way',
      async () => events[0]!.length > 0 && notices.every((n) => n.length > 0),
      20_000,
    );
    fleet.apis[live[victim]!]!.signal('SIGKILL');
    for (let i = 300; i < 600; i += 50) {
      await ingest.send(run.graphKey, run.events.slice(i, i + 50));
      await sleep(100);
    }
    await sendNotices(1);
    await sendNotices(2);
    const expectedEvents = Array.from({ length: 500 }, (_, i) => eventId(g.graph_id, 101 + i));
    await waitFor(
      'every stream has everything',
      async () => {
        const all = JSON.parse(
          (await get(fleet.apiUrl, '/api/v1/notices?graph=gph_fsse-notices&limit=100', key)).body,
        );
        return (
          events.every((e) => e.length >= expectedEvents.length) &&
          all.data.length === 3 * NOTICE_RUN_NOTICES.length &&
          notices.every((n) => n.length >= all.data.length)
        );
      },
      60_000,
    );
    const noticeIds = (
      JSON.parse(
        (await get(fleet.apiUrl, '/api/v1/notices?graph=gph_fsse-notices&limit=100', key)).body,
      ).data as { id: string }[]
    )
      .map((n) => n.id)
      .reverse();
    expect(noticeIds).toHaveLength(3 * NOTICE_RUN_NOTICES.length);
    for (const got of events) expect(got).toEqual(expectedEvents);
    for (const got of notices) expect(got).toEqual(noticeIds);
    expect(fleet.apis[live[victim]!]!.running).toBe(false);
    abort.abort();
    await Promise.allSettled(reading);
  });
});

/** A new key of the demo account whose rate-limit bucket (`gh:rl:key:<id>`) is served by `port`. */
async function keyWithBucketOn(admin: FleetAdmin, port: number): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const { key, id } = await admin.newKey();
    if ((await slotOwner(port, `gh:rl:key:${id}`))?.master === port) return key;
  }
  throw new Error(`no key's bucket landed on the master on port ${port}`);
}

/** Resolves once the streaming replica has replayed everything the primary wrote so far. */
async function replayed(fleet: Fleet): Promise<void> {
  const primary = new Client({ connectionString: fleet.postgres.primaryUrl });
  await primary.connect();
  try {
    const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn() as lsn');
    await waitFor('the replica replayed', async () => {
      const r = await primary.query<{ behind: string | null }>(
        'select pg_wal_lsn_diff($1, replay_lsn) as behind from pg_stat_replication',
        [rows[0]!.lsn],
      );
      return r.rows[0] !== undefined && Number(r.rows[0].behind) <= 0;
    });
  } finally {
    await primary.end();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
