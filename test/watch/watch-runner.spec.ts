import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import { WatchRunner, type WatchRunOptions } from '@graph-history/cli/watch/watch-runner';
import { ProjectGraphKeys } from '@graph-history/cli/watch/project-graph-keys';
import { FIXTURES, fixtureLines } from './support/fixture-lines';
import { FakeIngest } from './support/fake-ingest';
import { appendOrder } from './support/interleaved-sessions';

const V2 = join(FIXTURES, 'v2-subagent-files');
const V1 = join(FIXTURES, 'v1-inline-sidechains');
const PROJECT = '-home-USER-projects-demo';

function expectedEvents(dir: string): WatchEvent[] {
  const state = claudeCodeAdapter.initialState();
  return [
    ...claudeCodeAdapter.toEvents(state, fixtureLines(claudeCodeAdapter, dir)).events,
    ...claudeCodeAdapter.flush(state).events,
  ];
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('WatchRunner', () => {
  const server = new FakeIngest();
  let url: string;
  let tmp: string;
  /** The graph keys watch gives PROJECT and -path-to-Demo with this test's data folder. */
  let GRAPH: string;
  let DEMO: string;
  let info: string[];
  let warnings: string[];
  const log = {
    info: (m: string) => void info.push(m),
    warn: (m: string) => void warnings.push(m),
  };

  const options = (extra: Partial<WatchRunOptions> = {}): WatchRunOptions => ({
    projectsDir: join(tmp, 'projects'),
    url,
    key: server.apiKey,
    once: true,
    fromStart: false,
    pollMs: 50,
    dataDir: join(tmp, 'data'),
    viewerBase: 'http://viewer.test/',
    ...extra,
  });
  const runOnce = (extra: Partial<WatchRunOptions> = {}) =>
    new WatchRunner(claudeCodeAdapter, options(extra), log).run(new AbortController().signal);

  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());
  beforeEach(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'gh-watch-'));
    const keys = new ProjectGraphKeys(join(tmp, 'data'));
    GRAPH = await keys.keyFor(PROJECT);
    DEMO = await keys.keyFor('-path-to-Demo');
    server.graphs.clear();
    server.requests.length = 0;
    info = [];
    warnings = [];
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('back-fills a project once, prints its viewer address, and sends nothing new when run again', async () => {
    cpSync(V2, join(tmp, 'projects', PROJECT), { recursive: true });
    const first = await runOnce();
    const expected = expectedEvents(V2);
    expect(server.events(GRAPH)).toEqual(expected);
    expect(first.get(GRAPH)).toEqual({
      sent: expected.length,
      accepted: expected.length,
      duplicates: 0,
      skipped: 0,
    });
    expect(info).toContain(
      `Sharing ${join(tmp, 'projects', PROJECT)} as graph ${GRAPH}: http://viewer.test/graphs/gph_${GRAPH}`,
    );
    expect(warnings).toEqual([]);

    const second = await runOnce();
    expect(second.get(GRAPH)).toEqual({ sent: 0, accepted: 0, duplicates: 0, skipped: 0 });

    const again = await runOnce({ fromStart: true });
    expect(again.get(GRAPH)).toEqual({
      sent: expected.length,
      accepted: 0,
      duplicates: expected.length,
      skipped: 0,
    });
  });

  it('shares every project folder as its own graph, or all of them in one with --graph', async () => {
    cpSync(V2, join(tmp, 'projects', PROJECT), { recursive: true });
    cpSync(V1, join(tmp, 'projects', '-path-to-Demo'), { recursive: true });
    await runOnce();
    expect([...server.graphs.keys()].sort()).toEqual([GRAPH, DEMO].sort());
    expect(server.events(DEMO)).toEqual(expectedEvents(V1));

    server.graphs.clear();
    await runOnce({ graph: 'everything', fromStart: true });
    expect([...server.graphs.keys()]).toEqual(['everything']);
    expect(server.events('everything')).toHaveLength(
      expectedEvents(V1).length + expectedEvents(V2).length,
    );
  });

  it('follows lines as a live session appends them, waiting for a partial line to be finished', async () => {
    const project = join(tmp, 'projects', PROJECT);
    mkdirSync(project, { recursive: true });
    const lines = appendOrder(fixtureLines(claudeCodeAdapter, V2));
    const controller = new AbortController();
    const running = new WatchRunner(
      claudeCodeAdapter,
      options({ once: false, projectDir: project }),
      log,
    ).run(controller.signal);
    const write = (line: SourceLine, text = `${line.text}\n`) => {
      const path = join(project, line.file.path);
      mkdirSync(dirname(path), { recursive: true });
      appendFileSync(path, text);
    };
    const expected = expectedEvents(V2);
    const keyPrefix = (line: SourceLine) =>
      `${line.file.id}:${(JSON.parse(line.text) as { uuid?: string }).uuid}:`;
    // Cut the first line past the middle that yields events of its own.
    const cutAt = lines.findIndex(
      (l, i) => i >= lines.length / 2 && expected.some((e) => e.key.startsWith(keyPrefix(l))),
    );
    const cut = lines[cutAt]!;
    const fromCut = () => server.events(GRAPH).filter((e) => e.key.startsWith(keyPrefix(cut)));
    lines.slice(0, cutAt).forEach((l) => write(l));
    write(cut, cut.text.slice(0, 40));
    await waitFor(() => server.events(GRAPH).length > 0, 'the first half');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fromCut()).toEqual([]);
    write(cut, `${cut.text.slice(40)}\n`);
    await waitFor(() => fromCut().length > 0, 'the completed line');
    for (let i = cutAt + 1; i < lines.length; i += 300) {
      lines.slice(i, i + 300).forEach((l) => write(l));
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    await waitFor(() => server.events(GRAPH).length === expected.length, 'every event');
    controller.abort();
    await running;
    expect(
      server
        .events(GRAPH)
        .map((e) => e.key)
        .sort(),
    ).toEqual(expected.map((e) => e.key).sort());
    expect(warnings).toEqual([]);
    const saved = JSON.parse(
      readFileSync(join(tmp, 'data', 'watch', GRAPH, 'timeline.json'), 'utf8'),
    ) as { files: Record<string, { lineNo: number }> };
    expect(saved.files[join(project, 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl')]!.lineNo).toBe(
      1881,
    );
  });

  it('is woken by file-system notifications, not only by polling', async () => {
    const project = join(tmp, 'projects', PROJECT);
    mkdirSync(project, { recursive: true });
    const controller = new AbortController();
    const running = new WatchRunner(
      claudeCodeAdapter,
      options({ once: false, pollMs: 600_000 }),
      log,
    ).run(controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [first] = fixtureLines(claudeCodeAdapter, V1);
    writeFileSync(join(project, first!.file.path), `${first!.text}\n`);
    await waitFor(() => server.events(GRAPH).length > 0, 'a notification', 10_000);
    controller.abort();
    await running;
    expect(server.events(GRAPH)[0]).toMatchObject({ type: 'session.started' });
  });

  it('resumes after a restart from its saved positions, sending each event once', async () => {
    const project = join(tmp, 'projects', PROJECT);
    const lines = appendOrder(fixtureLines(claudeCodeAdapter, V2));
    const write = (part: SourceLine[]) =>
      part.forEach((line) => {
        const path = join(project, line.file.path);
        mkdirSync(dirname(path), { recursive: true });
        appendFileSync(path, `${line.text}\n`);
      });
    write(lines.slice(0, 1000));
    const before = await runOnce();
    write(lines.slice(1000));
    const after = await runOnce();
    const expected = expectedEvents(V2);
    expect(server.events(GRAPH)).toEqual(expected);
    expect(before.get(GRAPH)!.duplicates + after.get(GRAPH)!.duplicates).toBe(0);
  });

  it('logs a bad line and carries on', async () => {
    const project = join(tmp, 'projects', PROJECT);
    mkdirSync(project, { recursive: true });
    const good = readFileSync(join(V1, '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'), 'utf8').split(
      '\n',
    );
    writeFileSync(join(project, 's.jsonl'), [good[0], '{not json', good[1], ''].join('\n'));
    await runOnce();
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`^${join(project, 's.jsonl')}:2: invalid JSON`)),
    ]);
    expect(server.events(GRAPH).map((e) => e.type)).toEqual(['session.started', 'title', 'status']);
  });
});
