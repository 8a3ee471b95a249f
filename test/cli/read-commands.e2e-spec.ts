import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Event, GraphHistory } from '@graph-history/client';
import { type IssuedKey, Services } from '../conformance/support/services';
import { WatchScript } from '../conformance/support/watch-events';
import { RecordingProxy } from '../support/recording-proxy';
import { waitUntil } from '../support/wait';
import { cli } from './support/run-cli';

const CLI = join(__dirname, '..', '..', 'apps', 'cli', 'dist', 'main.js');

/** The built CLI as a child process, collecting stdout lines until it is stopped. */
class Running {
  readonly lines: string[] = [];
  stderr = '';
  private partial = '';
  private readonly exited: Promise<number | null>;

  constructor(
    args: string[],
    env: NodeJS.ProcessEnv,
    private readonly child: ChildProcess = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  ) {
    child.stdout!.on('data', (chunk: Buffer) => {
      const parts = (this.partial + chunk.toString('utf8')).split('\n');
      this.partial = parts.pop()!;
      this.lines.push(...parts);
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  async waitForLines(count: number): Promise<string[]> {
    await waitUntil(
      `${count} lines (have ${this.lines.length}; stderr: ${this.stderr})`,
      async () => this.lines.length >= count,
    );
    return this.lines;
  }

  /** SIGINT, as Ctrl-C sends; resolves with the exit code. */
  interrupt(): Promise<number | null> {
    this.child.kill('SIGINT');
    return this.exited;
  }
}

/** `graph-history graphs` and `graph-history tail` against the started services. */
describe('graph-history graphs and tail', () => {
  let s: Services;
  let key: IssuedKey;
  let env: NodeJS.ProcessEnv;
  let client: GraphHistory;
  const script = new WatchScript(Date.now() - 10 * 60_000, 1_000);

  beforeAll(async () => {
    s = await Services.start();
    key = await s.createKey('reader');
    env = { GRAPH_HISTORY_KEY: key.key, GRAPH_HISTORY_API_URL: s.apiBaseUrl };
    client = new GraphHistory({ apiKey: key.key, baseUrl: s.apiBaseUrl });
    await s.load(key, 'older', new WatchScript(Date.now() - 60 * 60_000).session('O').events);
    script
      .session('S', { title: 'Tail me' })
      .agent('S/explore', 'S', { agent_type: 'Explore', background: false })
      .status('S/explore', 'working', 'Reading the code')
      .event('usage.reported', 'S/explore', {
        model: 'claude-sonnet-4-5',
        input_tokens: 1_000,
        output_tokens: 2_000,
        cache_read_tokens: 100_000,
      });
    await s.load(key, 'tailed', script.take());
  }, 90_000);
  afterAll(() => s?.stop());

  it('graphs prints a table of the shares, most recently active first', async () => {
    const run = await cli(['graphs'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [header, ...rows] = run.stdout.trimEnd().split('\n');
    expect(header!.split(/\s{2,}/)).toEqual([
      'GRAPH',
      'NODES',
      'SESSIONS',
      'AGENTS',
      'WORKING',
      'BLOCKED',
      'STALE',
      'EVENTS',
      'TOKENS',
      'EST. COST',
      'LAST EVENT (UTC)',
      'VIEWER',
    ]);
    expect(rows.map((r) => r.split(/\s{2,}/).slice(0, 10))).toEqual([
      // Both tailed nodes are working, silent for minutes (stale), and S waits on its agent.
      // 1,000 × $3 + 2,000 × $15 + 100,000 × $0.30 per million tokens
      ['gph_tailed', '2', '1', '1', '2', '1', '2', '4', '103000', '$0.06'],
      ['gph_older', '1', '1', '0', '1', '0', '1', '1', '0', '$0.00'],
    ]);
    const graphs = (await client.graphs.list()).data;
    expect(rows.map((r) => r.split(/\s{2,}/)[11])).toEqual(graphs.map((g) => g.url));
  });

  it('graphs --json prints the API’s graphs, one per line', async () => {
    const run = await cli(['graphs', '--json', '--key', key.key, '--api-url', s.apiBaseUrl], {});
    expect(run.code).toBe(0);
    const printed = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(printed).toEqual((await client.graphs.list()).data);
  });

  it('reports a missing or refused key on one line', async () => {
    const none = await cli(['graphs'], { GRAPH_HISTORY_API_URL: s.apiBaseUrl });
    expect(none).toMatchObject({ code: 1 });
    expect(none.stderr).toMatch(/^error: No API key: pass --key or set GRAPH_HISTORY_KEY/);
    const bad = await cli(['graphs', '--key', 'sk_live_nope'], {
      GRAPH_HISTORY_API_URL: s.apiBaseUrl,
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: .*\(api_key_invalid, req_[A-Za-z0-9]+\)\n$/);
    const missing = await cli(['tail', 'nope'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: .*gph_nope.*\(resource_missing, req_/);
    const badMoment = await cli(['tail', 'tailed', '--as-of', 'yesterday'], env);
    expect(badMoment.stderr).toMatch(/^error: --as-of: expected an event id/);
  });

  it('tail prints each new event as one readable line with the nodes it changed, until interrupted', async () => {
    const newest = (await client.graphs.retrieve('gph_tailed')).retention.last_event_id!;
    const tail = new Running(['tail', 'gph_tailed', '--as-of', newest], env);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(tail.lines).toEqual([]);
    script
      .agent('S/explore/sub', 'S/explore', { agent_type: 'Plan', purpose: 'Plan the change' })
      .event('tasks.updated', 'S/explore', {
        tasks: [{ id: 't1', content: 'Read', status: 'in_progress' }],
      })
      .ended('S/explore/sub')
      // a late usage line of the ended agent: its subtree totals move up the tree
      .event('usage.reported', 'S/explore/sub', {
        model: 'gpt-5-codex',
        input_tokens: 10,
        output_tokens: 20,
      });
    await s.load(key, 'tailed', script.take());
    const lines = await tail.waitForLines(4);
    expect(await tail.interrupt()).toBe(0);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} {2}/);
    // Nodes by name: a session by its title, an agent by its type and purpose.
    expect(lines.map((l) => l.slice(25))).toEqual([
      'agent.spawned     Plan "Plan the change"  agent_type="Plan" purpose="Plan the change"  → +Plan "Plan the change"; ' +
        '"Tail me" (descendant_count, background_agent_count); Explore "work of S/explore" (child_count, descendant_count, background_agent_count)',
      // S waits on S/explore, so its blocked.open_tasks follows S/explore's tasks.
      'tasks.updated     Explore "work of S/explore"  tasks=[1]  → Explore "work of S/explore" (task_counts); "Tail me" (blocked)',
      'ended             Plan "Plan the change"  state="completed"  → Plan "Plan the change" (state, ended); ' +
        '"Tail me" (background_agent_count); Explore "work of S/explore" (background_agent_count)',
      'usage.reported    Plan "Plan the change"  model="gpt-5-codex" input_tokens=10 output_tokens=20  → ' +
        'Plan "Plan the change" (usage, descendant_usage); "Tail me" (descendant_usage); Explore "work of S/explore" (descendant_usage)',
    ]);
  });

  it('tail --json --as-of prints every event after the moment, then new ones, as JSON lines', async () => {
    const all = await client.events.list('gph_tailed', { order: 'asc' }).toArray({ limit: 100 });
    const tail = new Running(['tail', 'tailed', '--json', '--as-of', String(all[1]!.created)], env);
    const printed = (await tail.waitForLines(all.length - 2)).map((l) => JSON.parse(l) as Event);
    expect(printed).toEqual(all.slice(2));
    script.status('S', 'idle');
    await s.load(key, 'tailed', script.take());
    const [newest] = await client.events.list('gph_tailed', { limit: 1 }).toArray({ limit: 1 });
    const more = await tail.waitForLines(all.length - 1);
    expect(JSON.parse(more.at(-1)!)).toEqual(newest);
    expect(await tail.interrupt()).toBe(0);
  });

  it('tail follows by the event stream: a new event arrives with no request for the events list', async () => {
    const proxy = await RecordingProxy.start(s.apiBaseUrl);
    try {
      const tail = new Running(['tail', 'tailed', '--json'], {
        ...env,
        GRAPH_HISTORY_API_URL: proxy.baseUrl,
      });
      await waitUntil('the stream to open', async () =>
        proxy.paths.some((p) => p.startsWith('/api/v1/graphs/gph_tailed/events/stream')),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      script.status('S', 'working', 'Streamed');
      await s.load(key, 'tailed', script.take());
      const [newest] = await client.events.list('gph_tailed', { limit: 1 }).toArray({ limit: 1 });
      const lines = await tail.waitForLines(1);
      expect(await tail.interrupt()).toBe(0);
      expect(lines.map((l) => JSON.parse(l) as Event)).toEqual([newest]);
      expect(proxy.paths).toEqual([
        '/api/v1/graphs/gph_tailed',
        '/api/v1/graphs/gph_tailed/events/stream',
      ]);
    } finally {
      await proxy.stop();
    }
  });
});
