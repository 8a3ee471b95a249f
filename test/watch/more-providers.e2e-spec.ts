import {
  appendFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { cursorAdapter, geminiAdapter } from '@graph-history/adapters';
import { CURSOR_LAYOUT } from '@graph-history/cli/watch/cursor-projects';
import { FolderProjectsFinder } from '@graph-history/cli/watch/folder-projects-finder';
import { GEMINI_LAYOUT } from '@graph-history/cli/watch/gemini-projects';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { join } from 'node:path';
import { createProgram } from '@graph-history/cli/cli';
import { ProjectGraphKeys } from '@graph-history/cli/watch/project-graph-keys';
import { claudeProjectName } from '@graph-history/cli/watch/projects';
import type { TokenCounts } from '@graph-history/domain';
import { captureIo } from './support/capture-io';
import { CODEX_FIXTURES } from './support/codex-facts';
import { CURSOR_FIXTURES, cursorFacts } from './support/cursor-facts';
import { FIXTURES } from './support/fixture-lines';
import { GEMINI_FIXTURES, GEMINI_RECORDED_FIXTURES, geminiFacts } from './support/gemini-facts';
import { type ApiNode, LiveStack } from './support/live-stack';
import { buildOpencodeDb, opencodeRows } from './support/opencode-fixture';
import { tokensOf } from './support/token-sums';
import { geminiMessages, geminiSum } from './support/usage-oracles';

/**
 * `watch --once` over Gemini CLI chats and Cursor transcripts (test/fixtures/gemini-cli and
 * test/fixtures/cursor: hand-made after each provider's own records; test/fixtures/
 * gemini-cli-recorded: written by gemini-cli's own recorder; see their READMEs) into the
 * built ingestor, read back through the read API; then every provider at once in one project, as
 * found in their default homes; then Cursor followed live. Expected values are read from the raw files.
 */
describe('watch over Gemini CLI and Cursor sessions, and every provider at once, read back through the API', () => {
  const suite = LiveStack.forSuite('watch-more-providers');

  async function watch(env: Record<string, string>, ...args: string[]): Promise<string> {
    const io = captureIo({
      DATA_DIR: join(suite.tmp, 'data'),
      GRAPH_HISTORY_URL: suite.stack.ingestor.baseUrl,
      GRAPH_HISTORY_KEY: suite.stack.key.key,
      ...env,
    });
    await createProgram(io).parseAsync(['watch', '--once', ...args], { from: 'user' });
    expect(io.err()).toBe('');
    return io.out();
  }

  const providerOf = (node: ApiNode) => (node as ApiNode & { provider: string }).provider;
  const usageOf = (node: ApiNode) =>
    tokensOf((node as ApiNode & { usage: TokenCounts | null }).usage);
  const keyFor = (name: string) => new ProjectGraphKeys(join(suite.tmp, 'data')).keyFor(name);

  async function settled(graph: string, count: number, done: (n: ApiNode[]) => boolean) {
    return suite.stack.until(`${count} nodes of ${graph}`, async () => {
      const all = await suite.stack.nodes(graph);
      return all.length === count && done(all) ? all : undefined;
    });
  }

  it('Gemini CLI: a graph per project, sub-agents under the chat that called them, with their states and times', async () => {
    const tmp = join(suite.tmp, 'gemini', '.gemini', 'tmp');
    cpSync(GEMINI_FIXTURES, tmp, { recursive: true });
    const facts = geminiFacts();
    const out = await watch({}, '--provider', 'gemini-cli', '--dir', tmp);
    const projects = new Set([...facts.values()].map((f) => f.project));
    const sessions = [...facts.values()].filter((f) => f.kind === 'main');
    expect(out).toContain(
      `Gemini CLI: found ${sessions.length} sessions in ${projects.size} projects under ${tmp}.`,
    );
    const shop = await keyFor(claudeProjectName('/home/dev/shop'));
    const chats = [...facts.values()].filter((f) => f.project === 'shop');
    const nodes = await settled(shop, chats.length, (all) =>
      all.some((n) => n.kind === 'session' && n.state === 'idle'),
    );
    const byRef = new Map(nodes.map((n) => [n.provider_ref, n]));
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const refOf = (id: string) => {
      const f = facts.get(id)!;
      return f.kind === 'main' ? id : `${f.sessionId}/${id}`;
    };
    for (const f of chats) {
      const node = byRef.get(refOf(f.id))!;
      expect([f.id, node.kind, node.created, providerOf(node)]).toEqual([
        f.id,
        f.kind === 'main' ? 'session' : 'agent',
        f.startTs,
        'gemini-cli',
      ]);
      // tokens of its unique messages (watch --once -> API)
      expect([f.id, usageOf(node)]).toEqual([f.id, geminiSum(geminiMessages(f.records))]);
      if (f.kind === 'main') continue;
      expect([f.id, byId.get(node.parent_id!)!.provider_ref]).toEqual([
        f.id,
        refOf(f.calledBy!.chat),
      ]);
      expect([f.id, node.agent_type, node.state]).toEqual([
        f.id,
        f.calledBy!.agentName,
        f.calledBy!.status === 'cancelled' ? 'canceled' : 'completed',
      ]);
      expect(facts.get(f.calledBy!.chat)!.timestamps.has(node.ended!)).toBe(true);
    }
    // the other project, named by its hash folder (no .project_root): a graph of its own
    const blog = [...facts.values()].find((f) => f.project !== 'shop')!;
    const blogNodes = await settled(
      await keyFor(blog.project),
      1,
      (all) => all[0]!.state === 'idle',
    );
    expect([blogNodes[0]!.provider_ref, blogNodes[0]!.created]).toEqual([blog.id, blog.startTs]);

    const again = await watch({}, '--provider', 'gemini-cli', '--dir', tmp, '--from-start');
    expect(again).toMatch(/0 new, \d+ already there/);
    expect(again).not.toMatch(/[1-9]\d* new/);
  }, 180_000);

  it("Gemini CLI, chats written by gemini-cli-core's own recorder: the session, its sub-agent, their tokens", async () => {
    const tmp = join(suite.tmp, 'gemini-recorded', '.gemini', 'tmp');
    cpSync(GEMINI_RECORDED_FIXTURES, tmp, { recursive: true });
    const facts = [...geminiFacts(GEMINI_RECORDED_FIXTURES).values()];
    const out = await watch({}, '--provider', 'gemini-cli', '--dir', tmp);
    expect(out).toContain(`Gemini CLI: found 1 session in 1 project under ${tmp}.`);
    const graph = await keyFor(claudeProjectName('/home/dev/checkout'));
    const nodes = await settled(graph, facts.length, (all) =>
      all.some((n) => n.kind === 'session' && n.state === 'idle'),
    );
    const byRef = new Map(nodes.map((n) => [n.provider_ref, n]));
    const session = facts.find((f) => f.kind === 'main')!;
    for (const f of facts) {
      const node = byRef.get(f.kind === 'main' ? f.id : `${f.sessionId}/${f.id}`)!;
      expect([f.id, node.kind, node.created, providerOf(node), usageOf(node)]).toEqual([
        f.id,
        f.kind === 'main' ? 'session' : 'agent',
        f.startTs,
        'gemini-cli',
        geminiSum(geminiMessages(f.records)),
      ]);
      if (f.kind === 'main') continue;
      expect([node.parent_id, node.agent_type, node.state]).toEqual([
        byRef.get(session.id)!.id,
        f.calledBy!.agentName,
        'completed',
      ]);
    }
  }, 180_000);

  it('Cursor: the session and its sub-agents, dated by their files, states from their turn ends', async () => {
    const projects = join(suite.tmp, 'cursor', '.cursor', 'projects');
    cpSync(CURSOR_FIXTURES, projects, { recursive: true });
    const facts = cursorFacts();
    const base = Date.UTC(2026, 2, 2, 10, 0, 0) / 1000;
    const mtimes = new Map<string, number>();
    [...facts.values()].forEach((f, i) => {
      const path = join(projects, 'home-dev-shop', 'agent-transcripts', f.file);
      const at = f.id === f.session ? base : base + 10 * (i + 1);
      utimesSync(path, at, at);
      mtimes.set(f.id, at * 1000);
    });
    // a data folder of its own: with the one above, the same project would share one graph
    const data = join(suite.tmp, 'data-cursor');
    const out = await watch({ DATA_DIR: data }, '--provider', 'cursor', '--dir', projects);
    expect(out).toContain(`Cursor: found 1 session in 1 project under ${projects}.`);
    const graph = await new ProjectGraphKeys(data).keyFor(claudeProjectName('/home/dev/shop'));
    const nodes = await settled(graph, facts.size, (all) =>
      all.every((n) => (n.kind === 'session' ? n.state === 'idle' : n.ended !== null)),
    );
    const byRef = new Map(nodes.map((n) => [n.provider_ref, n]));
    for (const f of facts.values()) {
      const node = byRef.get(f.id === f.session ? f.id : `${f.session}/${f.id}`)!;
      expect([f.id, node.created, providerOf(node)]).toEqual([f.id, mtimes.get(f.id), 'cursor']);
      if (f.id === f.session) {
        expect([node.kind, node.state, node.parent_id]).toEqual(['session', 'idle', null]);
        continue;
      }
      expect([f.id, node.kind, node.agent_type, node.spawn_call_id]).toEqual([
        f.id,
        'agent',
        f.task!.agentType,
        f.task!.id,
      ]);
      expect([f.id, node.state, node.ended]).toEqual([
        f.id,
        f.ended === 'completed' ? 'completed' : 'canceled',
        mtimes.get(f.id),
      ]);
    }
    const again = await watch(
      { DATA_DIR: data },
      '--provider',
      'cursor',
      '--dir',
      projects,
      '--from-start',
    );
    expect(again).toMatch(/0 new, \d+ already there/);
    expect(again).not.toMatch(/[1-9]\d* new/);
  }, 180_000);

  it('every provider found in its default home: one project’s sessions side by side in one graph', async () => {
    const home = join(suite.tmp, 'home');
    const shop = claudeProjectName('/home/dev/shop');
    cpSync(join(FIXTURES, 'v1-inline-sidechains'), join(home, '.claude', 'projects', shop), {
      recursive: true,
    });
    cpSync(CODEX_FIXTURES, join(home, '.codex', 'sessions'), { recursive: true });
    cpSync(GEMINI_FIXTURES, join(home, '.gemini', 'tmp'), { recursive: true });
    mkdirSync(join(home, '.cursor'), { recursive: true });
    cpSync(CURSOR_FIXTURES, join(home, '.cursor', 'projects'), { recursive: true });
    mkdirSync(join(home, '.local', 'share', 'opencode'), { recursive: true });
    const opencode = buildOpencodeDb(join(home, '.local', 'share', 'opencode', 'opencode.db'));
    const out = await watch(
      { HOME: home, DATA_DIR: join(suite.tmp, 'data-all') },
      '--no-hooks',
    ).finally(() => opencode.close()); // opencode's writer stays open while watch reads
    expect(out).toMatch(
      /^Watching 5 providers: Claude Code 1 session, Codex 2 sessions, Gemini CLI 2 sessions, Cursor 1 session, opencode 2 sessions\.$/m,
    );
    const graph = await new ProjectGraphKeys(join(suite.tmp, 'data-all')).keyFor(shop);
    const sessions = [
      '5c0375b4-57a5-4f26-b12d-d022ee4e51b7',
      '019c8a10-1111-7000-8000-00000000a001',
      [...geminiFacts().values()].find((f) => f.project === 'shop' && f.kind === 'main')!.id,
      [...cursorFacts().values()].find((f) => f.id === f.session)!.id,
      opencodeRows().sessions.find((s) => !s.parent_id && s.directory === '/home/dev/shop')!.id,
    ];
    const nodes = await suite.stack.until('the five providers’ sessions', async () => {
      const all = await suite.stack.nodes(graph);
      const found = all.filter((n) => n.kind === 'session').map((n) => n.provider_ref);
      return sessions.every((s) => found.includes(s)) ? all : undefined;
    });
    const found = nodes.filter((n) => n.kind === 'session');
    expect(found.map((n) => [n.provider_ref, providerOf(n)]).sort()).toEqual(
      [
        [sessions[0], 'claude-code'],
        [sessions[1], 'codex'],
        [sessions[2], 'gemini-cli'],
        [sessions[3], 'cursor'],
        [sessions[4], 'opencode'],
      ].sort(),
    );
  }, 180_000);

  it('Cursor, live: each line is dated when its file was written', async () => {
    const projects = join(suite.tmp, 'cursor-live', 'projects');
    const facts = cursorFacts();
    const session = [...facts.values()].find((f) => f.id === f.session)!;
    const source = join(CURSOR_FIXTURES, 'home-dev-shop', 'agent-transcripts', session.file);
    const lines = readFileSync(source, 'utf8').trimEnd().split('\n');
    const path = join(projects, 'home-dev-shop', 'agent-transcripts', session.file);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `${lines[0]}\n`); // the user's first words
    const born = statSync(path);
    const options = {
      ...suite.stack.watchOptions(suite.tmp, 'cursor-live', { pollMs: 100, windowMs: 0 }),
      projectsDir: projects,
      dataDir: join(suite.tmp, 'data-cursor-live'),
    };
    const controller = new AbortController();
    const running = new WatchRunner(
      cursorAdapter,
      options,
      { info: () => undefined, warn: () => undefined },
      undefined,
      new FolderProjectsFinder(projects, CURSOR_LAYOUT),
    ).run(controller.signal);
    try {
      const graph = await new ProjectGraphKeys(options.dataDir).keyFor('-home-dev-shop');
      const first = await suite.stack.until('the session', async () =>
        (await suite.stack.nodes(graph)).find((n) => n.provider_ref === session.id),
      );
      expect(first.created).toBe(
        Math.trunc(Math.min(born.birthtimeMs || born.mtimeMs, born.mtimeMs)),
      );
      await new Promise((r) => setTimeout(r, 1_100));
      // the turn's end only: no sub-agent files here, so the session just ends its turn
      appendFileSync(path, `${lines[lines.length - 1]}\n`);
      const written = Math.trunc(statSync(path).mtimeMs);
      const idle = await suite.stack.until('the turn’s end', async () =>
        (await suite.stack.nodes(graph)).find(
          (n) => n.provider_ref === session.id && n.state === 'idle',
        ),
      );
      expect(idle.last_event).toBe(written);
      expect(idle.last_event).toBeGreaterThan(first.created);
    } finally {
      controller.abort();
    }
    await running;
  }, 120_000);

  it('Gemini CLI, live: a sub-agent appears with its prompt before any call names it', async () => {
    const tmp = join(suite.tmp, 'gemini-live', 'tmp');
    const facts = geminiFacts();
    const session = [...facts.values()].find((f) => f.project === 'shop' && f.kind === 'main')!;
    const nested = [...facts.values()].find(
      (f) => f.calledBy !== undefined && facts.get(f.calledBy.chat)!.kind === 'subagent',
    )!;
    const text = (f: { project: string; file: string }) =>
      readFileSync(join(GEMINI_FIXTURES, f.project, f.file), 'utf8')
        .trimEnd()
        .split('\n');
    const put = (f: { project: string; file: string }, lines: string[]) => {
      const path = join(tmp, f.project, f.file);
      mkdirSync(join(path, '..'), { recursive: true });
      appendFileSync(path, `${lines.join('\n')}\n`);
    };
    mkdirSync(join(tmp, 'shop'), { recursive: true });
    writeFileSync(join(tmp, 'shop', '.project_root'), '/home/dev/shop');
    put(session, text(session).slice(0, 3));
    const options = {
      ...suite.stack.watchOptions(suite.tmp, 'gemini-live', { pollMs: 100, windowMs: 0 }),
      projectsDir: tmp,
      dataDir: join(suite.tmp, 'data-gemini-live'),
    };
    const controller = new AbortController();
    const running = new WatchRunner(
      geminiAdapter,
      options,
      { info: () => undefined, warn: () => undefined },
      undefined,
      new FolderProjectsFinder(tmp, GEMINI_LAYOUT),
    ).run(controller.signal);
    try {
      const graph = await new ProjectGraphKeys(options.dataDir).keyFor(
        claudeProjectName('/home/dev/shop'),
      );
      await suite.stack.until('the session', async () =>
        (await suite.stack.nodes(graph)).find((n) => n.provider_ref === session.id),
      );
      // the nested sub-agent starts: the call that runs it completes only later
      const lines = text(nested);
      put(nested, lines.slice(0, 2));
      const agent = await suite.stack.until('the sub-agent', async () =>
        (await suite.stack.nodes(graph)).find(
          (n) => n.provider_ref === `${session.id}/${nested.id}`,
        ),
      );
      const prompt = (nested.records[1]!['content'] as Array<{ text: string }>)[0]!.text;
      const parent = (await suite.stack.nodes(graph)).find((n) => n.id === agent.parent_id)!;
      expect([parent.provider_ref, agent.created, agent.state]).toEqual([
        session.id,
        nested.startTs,
        'working',
      ]);
      expect((agent as ApiNode & { purpose: string }).purpose).toBe(prompt);
    } finally {
      controller.abort();
    }
    await running;
  }, 120_000);
});
