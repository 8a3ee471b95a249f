import { once } from 'node:events';
import { connect } from 'node:net';
import { WatchEvent } from '@graph-history/domain';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { createKey, TestKey } from './support/api-keys';
import { expectAppliedOnce } from './support/expect-applied-once';
import {
  activeJobs,
  deleteQueueKeys,
  startIngestor,
  uniqueQueuePrefix,
  waitFor,
} from './support/ingestor-harness';
import { IngestorProcess } from './support/ingestor-process';
import { postEvents } from './support/post-events';
import { simulate } from '@graph-history/simulator';
import { validRun } from './support/watch-events';
import { metricsAuth } from '../support/metrics-token';

/**
 * Faults against the BUILT ingestor (`node apps/ingestor/dist/main.js`, run `pnpm build` first):
 * two processes at once, SIGKILL mid-ingest, a flushed Redis, and SIGTERM's graceful drain.
 */
describe('ingestor faults', () => {
  let t: TestDatabase;
  let key: TestKey;
  const prefixes: string[] = [];
  const newPrefix = () => {
    const p = uniqueQueuePrefix();
    prefixes.push(p);
    return p;
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    key = await createKey(t.db, 'faults');
  });
  afterAll(async () => {
    for (const p of prefixes) await deleteQueueKeys(p);
    await t.drop();
  });

  const postBatch = (baseUrl: string, graphKey: string, events: unknown[]) =>
    postEvents(baseUrl, key.auth, graphKey, events);

  const graphRow = (graphKey: string) =>
    t.db
      .selectFrom('graphs')
      .selectAll()
      .where('graph_key', '=', graphKey)
      .executeTakeFirstOrThrow();

  const waitApplied = (graphKey: string, seq: number, timeoutMs = 40_000) =>
    waitFor(
      `${graphKey} applied through ${seq}`,
      async () => ((await graphRow(graphKey)).applied_seq >= seq ? true : undefined),
      timeoutMs,
    );

  const expectAppliedExactlyOnce = (graphKey: string, events: WatchEvent[]) =>
    expectAppliedOnce(t.db, graphKey, events);

  const appliedMetric = async (p: IngestorProcess) =>
    Number(
      /graph_history_events_applied_total (\d+)/.exec(
        await (await fetch(`${p.baseUrl}/metrics`, { headers: metricsAuth })).text(),
      )![1],
    );

  it('applies every event exactly once, in order, with two ingestor processes writing and applying', async () => {
    const env = { databaseUrl: t.url, queuePrefix: newPrefix() };
    const procs = await Promise.all([IngestorProcess.start(env), IngestorProcess.start(env)]);
    try {
      const graphs = simulate({
        graphs: 6,
        events: 1_500,
        seed: 'two-processes',
        graphKeyPrefix: 'two',
      });
      await Promise.all(
        graphs.map(async ({ graphKey, events }, g) => {
          for (let b = 0; b * 100 < events.length; b++) {
            const res = await postBatch(
              procs[(b + g) % 2]!.baseUrl,
              graphKey,
              events.slice(b * 100, b * 100 + 100),
            );
            expect(res).toEqual({
              status: 202,
              body: { accepted: 100, duplicates: 0, last_key: events[b * 100 + 99]!.key },
            });
          }
        }),
      );
      for (const { graphKey, events } of graphs) {
        await waitApplied(graphKey, events.length);
        await expectAppliedExactlyOnce(graphKey, events);
      }
      const applied = await Promise.all(procs.map(appliedMetric));
      expect(applied[0]! + applied[1]!).toBe(6 * 1_500);
    } finally {
      for (const p of procs) p.kill('SIGTERM');
      await Promise.all(procs.map((p) => p.exited));
    }
  }, 90_000);

  it('loses nothing acknowledged and applies nothing twice when SIGKILLed mid-ingest', async () => {
    const env = { databaseUrl: t.url, queuePrefix: newPrefix() };
    const graphs = simulate({ graphs: 4, events: 2_400, seed: 'sigkill', graphKeyPrefix: 'kill' });
    const batches = 4 * 12;
    const killAfter = 15;
    const acknowledged: string[] = [];
    /** Per graph, how many of its events (a prefix, sent in order) were answered with 202. */
    const acknowledgedCount = new Map<string, number>();
    let acks = 0;

    const first = await IngestorProcess.start(env);
    await Promise.all(
      graphs.map(async ({ graphKey, events }) => {
        for (let i = 0; i < events.length; i += 200) {
          const batch = events.slice(i, i + 200);
          const res = await postBatch(first.baseUrl, graphKey, batch).catch(() => null);
          if (res?.status !== 202) return;
          acknowledged.push(...batch.map((e) => e.key));
          acknowledgedCount.set(graphKey, i + batch.length);
          if (++acks === killAfter) first.kill('SIGKILL');
        }
      }),
    );
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(acks).toBeGreaterThanOrEqual(killAfter);
    expect(acks).toBeLessThan(batches);

    // Durable: every acknowledged key is stored, before any restart.
    const stored = await t.db.selectFrom('event_keys').select('key').execute();
    const storedKeys = new Set(stored.map((r) => r.key));
    expect(acknowledged.filter((k) => !storedKeys.has(k))).toEqual([]);

    // The killed process held apply jobs, which BullMQ keeps locked (and their deduplication ids
    // taken) until their locks expire and a stall check reclaims them.
    expect(await activeJobs(env.queuePrefix, 'apply')).toBeGreaterThan(0);

    const second = await IngestorProcess.start(env);
    try {
      // Everything acknowledged is readable soon after the restart (~0.1 s; ~1 s at most expected).
      await waitFor(
        'the acknowledged events to be applied by the restarted ingestor',
        async () => {
          const rows = await t.db
            .selectFrom('graphs')
            .select(['graph_key', 'applied_seq'])
            .execute();
          const applied = new Map(rows.map((r) => [r.graph_key, r.applied_seq]));
          return [...acknowledgedCount].every(([g, n]) => (applied.get(g) ?? 0) >= n);
        },
        3_000,
      );
      for (const { graphKey, events } of graphs) {
        for (let i = 0; i < events.length; i += 200) {
          const res = await postBatch(second.baseUrl, graphKey, events.slice(i, i + 200));
          expect(res.status).toBe(202);
          expect(res.body.accepted + res.body.duplicates).toBe(200);
        }
      }
      for (const { graphKey, events } of graphs) {
        await waitApplied(graphKey, events.length);
        await expectAppliedExactlyOnce(graphKey, events);
      }
    } finally {
      second.kill('SIGTERM');
      await second.exited;
    }
  }, 120_000);

  it('applies stored events after the queue keys were flushed from Redis', async () => {
    const prefix = newPrefix();
    const events = validRun('flush', 600);
    const writer = await startIngestor(t.db, t.url, prefix, false);
    try {
      for (let i = 0; i < events.length; i += 200) {
        const res = await writer.request('POST', '/ingest/v1/graphs/flushed/events', {
          headers: { 'content-type': 'application/json', authorization: key.auth },
          body: JSON.stringify({ events: events.slice(i, i + 200) }),
        });
        expect(res.statusCode).toBe(202);
      }
    } finally {
      await writer.close();
    }
    expect(await deleteQueueKeys(prefix)).toBeGreaterThan(0);
    expect((await graphRow('flushed')).applied_seq).toBe(0);

    const worker = await startIngestor(t.db, t.url, prefix, true);
    try {
      await waitApplied('flushed', 600, 15_000);
      await expectAppliedExactlyOnce('flushed', events);
    } finally {
      await worker.close();
    }
  });

  it('drains an in-flight request on SIGTERM, refuses new connections, and exits 0', async () => {
    const proc = await IngestorProcess.start({ databaseUrl: t.url, queuePrefix: newPrefix() });
    const events = validRun('term', 50);
    const body = JSON.stringify({ events });
    const socket = connect(proc.port, '127.0.0.1');
    await once(socket, 'connect');
    const response = (async () => {
      let text = '';
      for await (const chunk of socket) text += String(chunk);
      return text;
    })();
    socket.write(
      `POST /ingest/v1/graphs/term/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key.auth}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(body.slice(0, 100));
    await new Promise((r) => setTimeout(r, 300));

    proc.kill('SIGTERM');
    await waitFor('new connections to be refused', () =>
      fetch(`${proc.baseUrl}/healthz`).then(
        () => false,
        () => true,
      ),
    );
    // write, not end: a client that half-closes its side gets its request aborted by Node's server
    socket.write(body.slice(100));
    expect(await response).toMatch(/^HTTP\/1\.1 202/);
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    const g = await graphRow('term');
    expect(g.ingested_seq).toBe(50);
  });
});
