import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RefView, validateBatch } from '@graph-history/domain';
import { startFakeIngestServer } from './support/fake-ingest-server';
import { cli } from './support/run-cli';

interface Line {
  graph: string;
  event: { key: string; created: number };
}

const parseLines = (stdout: string): Line[] =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

describe('graph-history simulate', () => {
  it('prints the same lines for the same seed, and other lines for another seed', async () => {
    const a = await cli(['simulate', '--graphs', '2', '--events', '200', '--seed', '11']);
    const b = await cli(['simulate', '--graphs', '2', '--events', '200', '--seed', '11']);
    const c = await cli(['simulate', '--graphs', '2', '--events', '200', '--seed', '12']);
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    expect(c.stdout).not.toBe(a.stdout);
  });

  it('prints {"graph", "event"} lines: M valid events for each of N graphs', async () => {
    const run = await cli([
      'simulate',
      '--graphs',
      '3',
      '--events',
      '1500',
      '--seed',
      'abc',
      '--prefix',
      'load',
    ]);
    const lines = parseLines(run.stdout);
    expect(lines).toHaveLength(4_500);
    expect(lines.every((l) => Object.keys(l).sort().join() === 'event,graph')).toBe(true);
    for (const graph of ['load-1', 'load-2', 'load-3']) {
      const events = lines.filter((l) => l.graph === graph).map((l) => l.event);
      expect(events).toHaveLength(1_500);
      const refs = new Map<string, { ended: boolean }>();
      const view: RefView = { get: (r) => refs.get(r) };
      for (let i = 0; i < events.length; i += 1_000) {
        const result = validateBatch(view, events.slice(i, i + 1_000), Date.now());
        expect(result).toMatchObject({ ok: true });
        if (result.ok) for (const [ref, s] of result.refs) refs.set(ref, s);
      }
    }
  });

  it('starts at --start', async () => {
    const [first] = parseLines(
      (await cli(['simulate', '--graphs', '1', '--events', '1', '--start', '1700000000000']))
        .stdout,
    );
    expect(first!.event.created).toBeGreaterThanOrEqual(1_700_000_000_000);
    expect(first!.event.created).toBeLessThan(1_700_000_010_000);
  });

  it('feeds ingest directly: every graph receives its events in order', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gh-sim-'));
    const server = await startFakeIngestServer();
    try {
      const sim = await cli(['simulate', '--graphs', '2', '--events', '1200']);
      const file = path.join(dir, 'sim.jsonl');
      writeFileSync(file, sim.stdout);
      const run = await cli([
        'ingest',
        '--file',
        file,
        '--url',
        server.url,
        '--key',
        'sk_live_abcdefghijklmnopqrstuvwxyz012345',
      ]);
      expect(run.stdout).toBe('Sent 2,400 events to 2 graphs: 2,400 accepted, 0 duplicates.\n');
      const lines = parseLines(sim.stdout);
      for (const graph of ['sim-1', 'sim-2']) {
        const sent = server.requests
          .filter((r) => r.graph === graph)
          .flatMap((r) => r.events.map((e) => e.key));
        expect(sent).toEqual(lines.filter((l) => l.graph === graph).map((l) => l.event.key));
      }
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      ['simulate', '--graphs', '0', '--events', '5'],
      /--graphs <n>' argument '0' is invalid\. expected an integer from 1/,
    ],
    [['simulate', '--graphs', '2', '--events', 'many'], /--events <m>' argument 'many' is invalid/],
    [['simulate', '--graphs', '2'], /required option '--events <m>'/],
    [
      ['simulate', '--graphs', '2', '--events', '5', '--prefix', 'no spaces'],
      /--prefix: "no spaces" does not make valid graph keys/,
    ],
  ])('refuses %j with a clear message', async (args, message) => {
    const run = await cli(args);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });
});
