import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simulate, simulationStream } from '@graph-history/simulator';
import { accept, FakeIngestServer, startFakeIngestServer } from './support/fake-ingest-server';
import { cli } from './support/run-cli';

const KEY = 'sk_live_abcdefghijklmnopqrstuvwxyz012345';
const events = (graphs: number, count: number) =>
  simulate({ graphs, events: count, seed: 'ingest' });

describe('graph-history ingest', () => {
  let dir: string;
  let server: FakeIngestServer | null = null;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gh-ingest-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  const file = (name: string, lines: unknown[]) => {
    const p = path.join(dir, name);
    writeFileSync(
      p,
      lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n',
    );
    return p;
  };

  it('sends plain WatchEvent lines in order, in batches of at most 1,000, one at a time', async () => {
    server = await startFakeIngestServer();
    const [g] = events(1, 2_500);
    const f = file('plain.jsonl', g!.events);
    const run = await cli([
      'ingest',
      '--graph',
      'my-share',
      '--file',
      f,
      '--url',
      server.url,
      '--key',
      KEY,
    ]);
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toBe('Sent 2,500 events to 1 graph: 2,500 accepted, 0 duplicates.\n');
    expect(server.requests.map((r) => r.events.length)).toEqual([1_000, 1_000, 500]);
    expect(
      server.requests.every((r) => r.graph === 'my-share' && r.authorization === `Bearer ${KEY}`),
    ).toBe(true);
    expect(server.requests.flatMap((r) => r.events.map((e) => e.key))).toEqual(
      g!.events.map((e) => e.key),
    );
    expect(server.maxInFlight).toBe(1);
  });

  it('routes {"graph", "event"} lines to their graphs, keeping each graph in file order', async () => {
    server = await startFakeIngestServer();
    const graphs = events(3, 1_200);
    const lines = [...simulationStream({ graphs: 3, eventsPerGraph: 1_200, seed: 'ingest' })];
    const run = await cli([
      'ingest',
      '--file',
      file('multi.jsonl', lines),
      '--url',
      server.url,
      '--key',
      KEY,
    ]);
    expect(run.stdout).toBe('Sent 3,600 events to 3 graphs: 3,600 accepted, 0 duplicates.\n');
    for (const g of graphs) {
      const got = server.requests.filter((r) => r.graph === g.graphKey);
      expect(got.every((r) => r.events.length <= 1_000)).toBe(true);
      expect(got.flatMap((r) => r.events.map((e) => e.key))).toEqual(g.events.map((e) => e.key));
    }
  });

  it('takes the URL and key from GRAPH_HISTORY_URL and GRAPH_HISTORY_KEY, and reports duplicates', async () => {
    server = await startFakeIngestServer((batch) => ({
      status: 202,
      body: { accepted: 0, duplicates: batch.events.length, last_key: batch.events.at(-1)!.key },
    }));
    const [g] = events(1, 10);
    const run = await cli(['ingest', '--graph', 'again', '--file', file('dup.jsonl', g!.events)], {
      GRAPH_HISTORY_URL: server.url,
      GRAPH_HISTORY_KEY: KEY,
    });
    expect(run.stdout).toBe('Sent 10 events to 1 graph: 0 accepted, 10 duplicates.\n');
    expect(server.requests[0]!.authorization).toBe(`Bearer ${KEY}`);
  });

  it('retries a batch after 503, 429 with Retry-After and a dropped connection, then goes on', async () => {
    server = await startFakeIngestServer((batch, n) => {
      if (n === 1)
        return {
          status: 503,
          body: { error: { type: 'api_error', code: 'api_error', message: 'Down.', param: null } },
        };
      if (n === 2) return { status: 429, headers: { 'retry-after': '0' }, body: {} };
      if (n === 3) return 'drop';
      return accept(batch);
    });
    const [g] = events(1, 1_500);
    const run = await cli([
      'ingest',
      '--graph',
      'flaky',
      '--file',
      file('retry.jsonl', g!.events),
      '--url',
      server.url,
      '--key',
      KEY,
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr.match(/retrying in [\d.]+ s \(attempt \d of 8\)/gm)).toHaveLength(3);
    expect(run.stderr).toContain('503 api_error: Down.');
    expect(server.requests.map((r) => r.events.length)).toEqual([1_000, 1_000, 1_000, 1_000, 500]);
    expect(run.stdout).toBe('Sent 1,500 events to 1 graph: 1,500 accepted, 0 duplicates.\n');
  });

  it('stops at a refused batch and names the file line of the bad event', async () => {
    server = await startFakeIngestServer(() => ({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          param: 'events[3].node',
          message: 'No node has ref "x".',
        },
      },
    }));
    const [g] = events(1, 2_000);
    const lines: unknown[] = ['', ...g!.events];
    const run = await cli([
      'ingest',
      '--graph',
      'bad',
      '--file',
      file('refused.jsonl', lines),
      '--url',
      server.url,
      '--key',
      KEY,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: line 5 (graph bad): No node has ref "x". [400 parameter_invalid]\n',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('checks every line before sending anything', async () => {
    server = await startFakeIngestServer();
    const [g] = events(1, 5);
    const bad = { ...g!.events[2]!, payload: { state: 'sleepy' }, type: 'status' };
    const cases: [unknown[], RegExp][] = [
      [[g!.events[0], '{not json', g!.events[1]], /^error: line 2: not valid JSON/],
      [[g!.events[0], g!.events[1], bad], /^error: line 3: Invalid payload\.state/],
      [
        [{ graph: 'bad key!', event: g!.events[0] }],
        /^error: line 1: invalid graph key "bad key!"/,
      ],
    ];
    for (const [lines, message] of cases) {
      const run = await cli([
        'ingest',
        '--graph',
        'x',
        '--file',
        file('invalid.jsonl', lines),
        '--url',
        server.url,
        '--key',
        KEY,
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(message);
    }
    const unnamed = await cli([
      'ingest',
      '--file',
      file('unnamed.jsonl', g!.events),
      '--url',
      server.url,
      '--key',
      KEY,
    ]);
    expect(unnamed.stderr).toMatch(/^error: line 1: the line names no graph; pass --graph KEY/);
    expect(server.requests).toHaveLength(0);
  });

  it('splits batches to stay under the 4 MiB body limit', async () => {
    server = await startFakeIngestServer();
    const [g] = events(1, 1_000);
    const big = g!.events.map((e) =>
      e.type === 'activity' ? { ...e, payload: { summary: 'x'.repeat(19_000) } } : e,
    );
    const run = await cli([
      'ingest',
      '--graph',
      'big',
      '--file',
      file('big.jsonl', big),
      '--url',
      server.url,
      '--key',
      KEY,
    ]);
    expect(run.code).toBe(0);
    expect(server.requests.length).toBeGreaterThan(1);
    for (const r of server.requests)
      expect(Buffer.byteLength(JSON.stringify({ events: r.events }))).toBeLessThan(4 * 1024 * 1024);
    expect(server.requests.flatMap((r) => r.events.map((e) => e.key))).toEqual(
      g!.events.map((e) => e.key),
    );
  });

  it('needs a key and a readable file', async () => {
    const noKey = await cli(['ingest', '--graph', 'x', '--file', path.join(dir, 'plain.jsonl')]);
    expect(noKey.stderr).toMatch(/^error: No API key: pass --key or set GRAPH_HISTORY_KEY/);
    const noFile = await cli([
      'ingest',
      '--graph',
      'x',
      '--file',
      path.join(dir, 'missing.jsonl'),
      '--key',
      KEY,
    ]);
    expect(noFile.stderr).toMatch(/^error: Cannot read .*missing\.jsonl/);
    expect(noFile.code).toBe(1);
  });
});
