import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { CODEX_FIXTURES } from '../../../../test/watch/support/codex-facts';
import { FIXTURES } from '../../../../test/watch/support/fixture-lines';
import { FakeIngest } from '../../../../test/watch/support/fake-ingest';
import { CliError } from '../cli-error';
import type { CliIo } from '../io';
import { ProjectGraphKeys } from './project-graph-keys';
import { claudeProjectName, resolveProjectDir } from './projects';
import { registerWatchCommand } from './watch.command';
import { captureIo } from '../../../../test/watch/support/capture-io';

async function watch(io: CliIo, ...args: string[]): Promise<void> {
  const program = new Command('graph-history').exitOverride();
  registerWatchCommand(program, io);
  await program.parseAsync(['watch', ...args], { from: 'user' });
}

describe('graph-history watch', () => {
  const server = new FakeIngest();
  let url: string;
  let tmp: string;
  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'gh-watch-cmd-'));
    server.graphs.clear();
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('--once back-fills the chosen project and prints the viewer address and a summary', async () => {
    const projects = join(tmp, 'projects');
    cpSync(join(FIXTURES, 'v1-inline-sidechains'), join(projects, '-path-to-Demo'), {
      recursive: true,
    });
    const io = captureIo({
      GRAPH_HISTORY_KEY: server.apiKey,
      DATA_DIR: join(tmp, 'data'),
      PUBLIC_URL: 'https://share.example.com',
    });
    await watch(io, '--once', '--dir', projects, '--project', '/path/to/Demo', '--url', url);
    const key = await new ProjectGraphKeys(join(tmp, 'data')).keyFor('-path-to-Demo');
    expect(key).toMatch(/^path-to-Demo-[a-z2-9]{10}$/);
    const events = server.events(key);
    expect(events.length).toBeGreaterThan(0);
    expect(io.out()).toBe(
      `Sharing ${join(projects, '-path-to-Demo')} as graph ${key}: https://share.example.com/graphs/gph_${key}\n` +
        `Found 1 session in the project folder ${join(projects, '-path-to-Demo')}.\n` +
        `graph ${key}: ${events.length} events sent, ${events.length} new, 0 already there.\n`,
    );
    expect(io.err()).toBe('');
  });

  it.each([
    {
      what: 'the folder of projects',
      pick: (p: string) => p,
      found: /^Found 2 sessions in 2 projects under /m,
      graphs: 2,
    },
    {
      what: 'one project folder',
      pick: (p: string) => join(p, 'demo'),
      found: /^Found 1 session in the project folder /m,
      graphs: 1,
    },
    {
      what: 'one session file',
      pick: (p: string) => join(p, 'demo', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'),
      found: /^Following the session in .*5c0375b4-57a5-4f26-b12d-d022ee4e51b7\.jsonl\.$/m,
      graphs: 1,
    },
  ])('--dir takes $what and says what it found', async ({ pick, found, graphs }) => {
    const projects = join(tmp, 'projects');
    cpSync(join(FIXTURES, 'v1-inline-sidechains'), join(projects, 'demo'), { recursive: true });
    cpSync(join(FIXTURES, 'v2-subagent-files'), join(projects, 'other'), { recursive: true });
    const io = captureIo({ DATA_DIR: join(tmp, 'data'), GRAPH_HISTORY_URL: url });
    await watch(io, '--once', '--dir', pick(projects), '--key', server.apiKey);
    expect(io.out()).toMatch(found);
    const demo = await new ProjectGraphKeys(join(tmp, 'data')).keyFor('demo');
    expect(server.events(demo).length).toBeGreaterThan(0);
    expect(server.graphs.size).toBe(graphs);
    expect(io.err()).toBe('');
  });

  it('--once over a folder without sessions is a one-line error', async () => {
    const io = captureIo({ DATA_DIR: join(tmp, 'data'), GRAPH_HISTORY_URL: url });
    const run = watch(io, '--once', '--dir', tmp, '--key', server.apiKey);
    await expect(run).rejects.toThrow(CliError);
    await expect(run).rejects.toThrow(`No Claude Code sessions found in ${tmp}.`);
  });

  it('honours --graph and --key', async () => {
    const projects = join(tmp, 'projects');
    cpSync(join(FIXTURES, 'v1-inline-sidechains'), join(projects, 'demo'), { recursive: true });
    const io = captureIo({ DATA_DIR: join(tmp, 'data'), GRAPH_HISTORY_URL: url });
    await watch(io, '--once', '--dir', projects, '--graph', 'my_share', '--key', server.apiKey);
    expect([...server.graphs.keys()]).toEqual(['my_share']);
  });

  it.each([
    [['--once'], {}, /No API key/],
    [
      ['--once', '--graph', 'bad key!'],
      { GRAPH_HISTORY_KEY: 'sk_x' },
      /--graph: "bad key!" must be 1 to 64/,
    ],
    [
      ['--once', '--url', 'not a url'],
      { GRAPH_HISTORY_KEY: 'sk_x' },
      /--url: "not a url" is not a URL/,
    ],
    [
      ['--once', '--project', 'missing'],
      { GRAPH_HISTORY_KEY: 'sk_x' },
      /^--project missing: .*missing does not exist\. Pass the Claude Code projects folder/,
    ],
  ])('refuses %j with one clear line', async (args, env, message) => {
    const io = captureIo({ DATA_DIR: join(tmp, 'data'), ...env });
    const run = watch(io, '--dir', tmp, ...args);
    await expect(run).rejects.toThrow(CliError);
    await expect(run).rejects.toThrow(message);
  });

  it('gives advice that fits the --dir typed: a near name, a home folder, a folder of something else', async () => {
    const home = join(tmp, 'home');
    mkdirSync(join(home, '.claude', 'projects', '-path-to-Demo'), { recursive: true });
    mkdirSync(join(home, 'src', 'app'), { recursive: true });
    const io = captureIo({ DATA_DIR: join(tmp, 'data'), GRAPH_HISTORY_KEY: 'sk_x' });
    const refusal = (dir: string) =>
      watch(io, '--once', '--dir', dir).then(
        () => '',
        (err: Error) => err.message,
      );
    const projects = join(home, '.claude', 'projects');
    expect(await refusal(join(home, '.claude', 'projcts'))).toBe(
      `--dir ${join(home, '.claude', 'projcts')}: ${join(home, '.claude', 'projcts')} does not exist. Did you mean ${projects}?`,
    );
    expect(await refusal(`${home}/`)).toBe(
      `--dir ${home}/: ${home} is not a Claude Code projects folder; the one inside it is ${projects}: pass --dir ${projects}, or leave --dir out to use ~/.claude/projects.`,
    );
    expect(await refusal(join(home, 'src'))).toMatch(
      /^--dir .*src: .*src holds no Claude Code transcripts \(project folders are named like -home-me-app and hold session \.jsonl files\)/,
    );
    expect(await refusal(join(home, 'nowhere-near'))).toMatch(
      /^--dir .*nowhere-near: .*nowhere-near does not exist\. Pass the Claude Code projects folder \(~\/\.claude\/projects\), one project folder in it, or one session \.jsonl file\.$/,
    );
  });

  it('stops with the server message when the key is refused', async () => {
    const projects = join(tmp, 'projects');
    cpSync(join(FIXTURES, 'v1-inline-sidechains'), join(projects, 'demo'), { recursive: true });
    const io = captureIo({
      DATA_DIR: join(tmp, 'data'),
      GRAPH_HISTORY_URL: url,
      GRAPH_HISTORY_KEY: 'sk_wrong',
    });
    await expect(watch(io, '--once', '--dir', projects)).rejects.toThrow('Invalid API key.');
  });

  describe('every provider found', () => {
    /** HOME holds ~/.claude/projects, CODEX_HOME the Codex rollouts. */
    const both = () =>
      captureIo({
        GRAPH_HISTORY_KEY: server.apiKey,
        GRAPH_HISTORY_URL: url,
        DATA_DIR: join(tmp, 'data'),
        HOME: tmp,
        CODEX_HOME: join(tmp, 'codex'),
      });

    it('shares both providers’ sessions of one project in one graph and says what it found per provider', async () => {
      cpSync(CODEX_FIXTURES, join(tmp, 'codex', 'sessions'), { recursive: true });
      const shop = claudeProjectName('/home/dev/shop');
      const projects = join(tmp, '.claude', 'projects');
      cpSync(join(FIXTURES, 'v1-inline-sidechains'), join(projects, shop), { recursive: true });
      const io = both();
      await watch(io, '--once');
      expect(io.err()).toBe('');
      expect(io.out()).toMatch(/^Found 1 session in 1 project under .*\.claude\/projects\.$/m);
      expect(io.out()).toMatch(
        /^Codex: found 2 sessions \(3 sub-agents\) in 2 projects under .*codex\/sessions\.$/m,
      );
      const graph = await new ProjectGraphKeys(join(tmp, 'data')).keyFor(shop);
      const sessions = server
        .events(graph)
        .filter((e) => e.type === 'session.started')
        .map((e) => [e.source.provider, e.node]);
      expect(sessions.sort()).toEqual([
        ['claude-code', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7'],
        ['codex', '019c8a10-1111-7000-8000-00000000a001'],
      ]);
      expect(server.graphs.size).toBe(2); // shop (both providers) and blog (Codex)
    });

    it('--provider narrows to one provider', async () => {
      cpSync(CODEX_FIXTURES, join(tmp, 'codex', 'sessions'), { recursive: true });
      mkdirSync(join(tmp, '.claude', 'projects'), { recursive: true });
      const io = both();
      await watch(io, '--once', '--provider', 'codex');
      expect(io.out()).not.toMatch(/Claude Code/);
      expect(server.graphs.size).toBe(2);
      await expect(watch(both(), '--once', '--provider', 'gemini')).rejects.toThrow(
        /--provider: "gemini" is not one of/,
      );
      await expect(
        watch(both(), '--once', '--provider', 'codex', '--project', '/home/dev/shop'),
      ).rejects.toThrow(/--project picks a Claude Code project/);
    });

    it('--provider gemini-cli, cursor or opencode says where it looked when nothing is there', async () => {
      await expect(watch(both(), '--once', '--provider', 'gemini-cli')).rejects.toThrow(
        `No Gemini CLI folder at ${join(tmp, '.gemini', 'tmp')}`,
      );
      await expect(watch(both(), '--once', '--provider', 'cursor')).rejects.toThrow(
        `No Cursor folder at ${join(tmp, '.cursor', 'projects')}`,
      );
      await expect(watch(both(), '--once', '--provider', 'opencode')).rejects.toThrow(
        `No opencode database at ${join(tmp, '.local', 'share', 'opencode', 'opencode.db')}`,
      );
      await expect(
        watch(both(), '--once', '--provider', 'cursor', '--project', '/home/dev/shop'),
      ).rejects.toThrow(/--project picks a Claude Code project/);
    });
  });
});

describe('project folders and graph keys', () => {
  it('finds a project by folder name, folder path or working directory', () => {
    expect(claudeProjectName('/home/me/my.app')).toBe('-home-me-my-app');
    expect(resolveProjectDir('/p', '-home-me-app')).toBe('/p/-home-me-app');
    expect(resolveProjectDir('/p', '/p/-home-me-app')).toBe('/p/-home-me-app');
    expect(resolveProjectDir('/p', '/home/me/my.app')).toBe('/p/-home-me-my-app');
  });
});
