import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectApiError, expectGraphShape } from './support/contract';
import { countsOf, nodeInvariantViolations } from './support/node-invariants';
import { type IssuedKey, Services } from './support/services';
import { waitUntil } from '../support/wait';
import type { WatchEventJson } from './support/watch-events';

type Item = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Retention (read-api.md 2 and 8, decisions.md "Retention"): 2,500 simulated events sent with the
 * CLI (`simulate` → `ingest`) leave between 1,000 and 2,000 readable; trimmed ids answer 410.
 */
describe('conformance: retention of a live share', () => {
  const TOTAL = 2_500;
  let s: Services;
  let acme: IssuedKey;
  let tmp: string;
  let events: WatchEventJson[];
  /** Stored `created` of each sent event: raised to the previous one when the clock skewed. */
  let storedCreated: number[];
  let trimmed: { id: string; created: number; nodeId: string };
  /** event_count seen by a reader while the last 1,500 events arrived. */
  const seenCounts: number[] = [];
  let graph: Item;

  const ingestFile = async (name: string, lines: string[]) => {
    const file = join(tmp, name);
    writeFileSync(file, lines.join('\n') + '\n');
    const res = await s.cli([
      'ingest',
      '--file',
      file,
      '--key',
      acme.key,
      '--url',
      s.ingestBaseUrl,
    ]);
    if (res.code !== 0) throw new Error(`ingest failed: ${res.stderr}`);
  };

  beforeAll(async () => {
    s = await Services.start();
    acme = await s.createKey('acme');
    tmp = mkdtempSync(join(tmpdir(), 'gh-conformance-'));
    const sim = await s.cli([
      'simulate',
      '--graphs',
      '1',
      '--events',
      String(TOTAL),
      '--seed',
      '7',
    ]);
    if (sim.code !== 0) throw new Error(`simulate failed: ${sim.stderr}`);
    const lines = sim.stdout.trim().split('\n');
    expect(lines).toHaveLength(TOTAL);
    events = lines.map((l) => (JSON.parse(l) as { event: WatchEventJson }).event);
    storedCreated = [];
    events.forEach((ev, i) =>
      storedCreated.push(i === 0 ? ev.created : Math.max(ev.created, storedCreated[i - 1]!)),
    );

    await ingestFile('first.jsonl', lines.slice(0, 1_000));
    await s.waitForEventCount(acme.auth, 'sim-1', 1_000);
    const oldest = (await s.read('/graphs/gph_sim-1/events?order=asc&limit=1', acme.auth)).data[0];
    trimmed = { id: oldest.id, created: oldest.created, nodeId: oldest.node_id };

    let ingesting = true;
    const watcher = (async () => {
      while (ingesting) {
        const res = await s.get('/graphs/gph_sim-1', acme.auth);
        if (res.status === 200) seenCounts.push(res.body.retention.event_count);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    try {
      await ingestFile('rest.jsonl', lines.slice(1_000));
      await waitUntil('the last event to be readable', async () => {
        const g = await s.read('/graphs/gph_sim-1', acme.auth);
        return (
          g.retention.last_event_created === storedCreated[TOTAL - 1] &&
          g.last_event === storedCreated[TOTAL - 1]
        );
      });
    } finally {
      ingesting = false;
      await watcher;
    }
    // The trim job deletes rows in the background; the retained range is already final.
    graph = await s.read('/graphs/gph_sim-1', acme.auth);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('keeps between 1,000 and 2,000 events, and readers never saw more or fewer', async () => {
    expectGraphShape(graph);
    expect(graph.retention.event_count).toBeGreaterThanOrEqual(1_000);
    expect(graph.retention.event_count).toBeLessThanOrEqual(2_000);
    expect(seenCounts.length).toBeGreaterThan(0);
    expect(Math.min(...seenCounts)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...seenCounts)).toBeLessThanOrEqual(2_000);
  });

  it('lists 100 events by default', async () => {
    const page = await s.read('/graphs/gph_sim-1/events', acme.auth);
    expect(page.data).toHaveLength(100);
    expect(page.has_more).toBe(true);
    expect(page.data[0].id).toBe(graph.retention.last_event_id);
  });

  it('lists exactly the retained events, the newest of those sent, in stored time order', async () => {
    const listed: Item[] = [];
    let page = await s.read('/graphs/gph_sim-1/events?order=asc&limit=1000', acme.auth);
    listed.push(...page.data);
    while (page.has_more) {
      page = await s.read(`${page.url}&starting_after=${listed[listed.length - 1]!.id}`, acme.auth);
      listed.push(...page.data);
    }
    const count = graph.retention.event_count;
    expect(listed).toHaveLength(count);
    expect(listed[0]!.id).toBe(graph.retention.first_event_id);
    expect(listed[count - 1]!.id).toBe(graph.retention.last_event_id);
    expect(listed[0]!.created).toBe(graph.retention.first_event_created);
    expect(listed[count - 1]!.created).toBe(graph.retention.last_event_created);
    const sentTail = events.slice(TOTAL - count);
    expect(listed.map((e) => [e.type, e.payload])).toEqual(
      sentTail.map((e) => [e.type, e.payload]),
    );
    expect(listed.map((e) => e.created)).toEqual(storedCreated.slice(TOTAL - count));
  });

  it('answers as_of a trimmed event id with 410 outside_retention_window and the retained bounds', async () => {
    const paths = [
      '/graphs/gph_sim-1',
      `/graphs/gph_sim-1/nodes/${trimmed.nodeId}`,
      '/graphs/gph_sim-1/nodes',
      '/graphs/gph_sim-1/events',
    ];
    for (const path of paths) {
      const err = expectApiError(await s.get(`${path}?as_of=${trimmed.id}`, acme.auth), {
        status: 410,
        type: 'invalid_request_error',
        code: 'outside_retention_window',
        param: 'as_of',
      });
      expect(err.first_event_id).toBe(graph.retention.first_event_id);
      expect(err.last_event_id).toBe(graph.retention.last_event_id);
    }
  });

  it('answers as_of a time before the oldest retained event with 410, and accepts its exact time', async () => {
    const err = expectApiError(
      await s.get(`/graphs/gph_sim-1?as_of=${graph.retention.first_event_created - 1}`, acme.auth),
      {
        status: 410,
        type: 'invalid_request_error',
        code: 'outside_retention_window',
        param: 'as_of',
      },
    );
    expect(err.first_event_id).toBe(graph.retention.first_event_id);
    expect(
      (await s.get(`/graphs/gph_sim-1?as_of=${graph.retention.first_event_created}`, acme.auth))
        .status,
    ).toBe(200);
    const oldest = await s.read(
      `/graphs/gph_sim-1?as_of=${graph.retention.first_event_id}`,
      acme.auth,
    );
    expect(oldest.as_of_event_id).toBe(graph.retention.first_event_id);
  });

  it.each(['starting_after', 'ending_before'])(
    'answers an events %s cursor that was trimmed with 410',
    async (cursor) => {
      const err = expectApiError(
        await s.get(`/graphs/gph_sim-1/events?order=asc&${cursor}=${trimmed.id}`, acme.auth),
        {
          status: 410,
          type: 'invalid_request_error',
          code: 'outside_retention_window',
        },
      );
      expect(err.first_event_id).toBe(graph.retention.first_event_id);
      expect(err.last_event_id).toBe(graph.retention.last_event_id);
    },
  );

  it('counts re-sent trimmed events as duplicates and stores nothing', async () => {
    const res = await s.ingest('sim-1', events.slice(0, 10), acme.auth);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 0, duplicates: 10, last_key: events[9]!.key });
    const after = await s.read('/graphs/gph_sim-1', acme.auth);
    expect(after.retention).toEqual(graph.retention);
  });

  it('serves counts and node fields that agree with each other, now and as of older retained moments', async () => {
    const moments = [
      '',
      `?as_of=${graph.retention.first_event_id}`,
      `?as_of=${Math.floor((graph.retention.first_event_created + graph.retention.last_event_created) / 2)}`,
    ];
    for (const asOf of moments) {
      const g = await s.read(`/graphs/gph_sim-1${asOf}`, acme.auth);
      // The same as_of for both reads: a time and an event id are different moments for `stale`.
      const nodes = await s.read(
        `/graphs/gph_sim-1/nodes?limit=1000&as_of=${asOf ? asOf.slice('?as_of='.length) : g.as_of_event_id}`,
        acme.auth,
      );
      expect(nodes.has_more).toBe(false);
      expect([asOf, nodeInvariantViolations(nodes.data)]).toEqual([asOf, []]);
      expect([asOf, countsOf(nodes.data)]).toEqual([asOf, g.counts]);
    }
  });

  it("records in each event's changes the from and to of the nodes read just before and just after it", async () => {
    const listed = (await s.read('/graphs/gph_sim-1/events?order=asc&limit=1000', acme.auth))
      .data as Item[];
    let checked = 0;
    for (let i = 1; i < listed.length; i += 37) {
      const [before, event] = [listed[i - 1]!, listed[i]!];
      for (const change of event.changes) {
        const after = await s.read(
          `/graphs/gph_sim-1/nodes/${change.node_id}?as_of=${event.id}`,
          acme.auth,
        );
        const prior = await s.get(
          `/graphs/gph_sim-1/nodes/${change.node_id}?as_of=${before.id}`,
          acme.auth,
        );
        if (change.created) expect(prior.body.error?.code).toBe('node_not_yet_created');
        for (const [field, { from, to }] of Object.entries(
          change.fields as Record<string, { from: unknown; to: unknown }>,
        )) {
          expect([event.id, field, after[field]]).toEqual([event.id, field, to]);
          if (!change.created)
            expect([event.id, field, prior.body[field]]).toEqual([event.id, field, from]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
