import { Client } from 'pg';
import { eventId } from '@graph-history/domain';
import { simulate } from '@graph-history/simulator';
import { Fleet, startFleet } from '@graph-history/cli/fleet/fleet';
import { CHECK_FALL, CHECK_INTER_MS } from '@graph-history/cli/fleet/haproxy';
import { IngestClient } from '@graph-history/cli/ingest-client';
import type { ChildService } from '@graph-history/cli/start/child-service';
import { freePort } from '../support/free-port';
import { expectAppliedOnce } from '../ingestor/support/expect-applied-once';
import { waitFor } from '../ingestor/support/ingestor-harness';
import { FleetAdmin, get, replicaUrls } from './support/fleet-client';

const RATE = { perSecond: 20, burst: 60 };

/**
 * A whole fleet (`startFleet`, what `pnpm fleet` runs): Postgres primary + streaming replica,
 * a 3-master Redis Cluster, 2 ingestors, 3 API replicas behind HAProxy. Shared state first, then
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
        RATE_LIMIT_PER_SECOND: String(RATE.perSecond),
        RATE_LIMIT_BURST: String(RATE.burst),
      },
    });
    admin = new FleetAdmin(fleet);
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
    const answers = await Promise.all(replicaUrls(fleet).map((u) => get(u, path, fleet.key)));
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
    expect(next[0]!.body).toBe(next[1]!.body);
    const page = JSON.parse(next[0]!.body);
    expect(page.data).toHaveLength(7);
    expect(page.data[0].id).not.toBe(cursor);
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

  it('loses nothing acknowledged when a Redis master dies, and catches up once it is back', async () => {
    const run = simulate({
      graphs: 1,
      events: 600,
      seed: 'fleet-redis',
      graphKeyPrefix: 'fleet-redis',
    })[0]!;
    const client = new IngestClient({ url: fleet.ingestUrl, key: fleet.key, baseDelayMs: 100 });
    await client.send(run.graphKey, run.events.slice(0, 200));
    fleet.redis.servers[0]!.signal('SIGKILL');
    await new Promise((r) => setTimeout(r, 3_000)); // past cluster-node-timeout: the cluster is down
    // reads go on (rate limits per process meanwhile); ingest stores what it acknowledges
    const read = await get(fleet.apiUrl, `/api/v1/graphs/gph_${graph.graphKey}`, fleet.key);
    expect(read.status).toBe(200);
    const sending = (async () => {
      for (let i = 200; i < run.events.length; i += 100)
        await client.send(run.graphKey, run.events.slice(i, i + 100));
    })();
    await new Promise((r) => setTimeout(r, 2_000));
    restarted.push(fleet.redis.restart(0));
    await sending;
    await admin.appliedThrough(run.graphKey, run.events.length, 60_000);
    await expectAppliedOnce(admin.db, run.graphKey, run.events);
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
});

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
