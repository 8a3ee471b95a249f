import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { captureIo } from '../../../../test/watch/support/capture-io';
import { CODEX_FIXTURES } from '../../../../test/watch/support/codex-facts';
import { FakeIngest } from '../../../../test/watch/support/fake-ingest';
import { FIXTURES } from '../../../../test/watch/support/fixture-lines';
import { ProjectGraphKeys } from './project-graph-keys';
import { claudeProjectName } from './projects';
import { registerWatchCommand } from './watch.command';

/** `watch` with no --provider on a machine that has both Claude Code and Codex sessions. */
describe('graph-history watch, every provider found', () => {
  const server = new FakeIngest();
  let url: string;
  let tmp: string;
  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'gh-watch-providers-'));
    server.graphs.clear();
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  async function watch(...args: string[]): Promise<string> {
    const io = captureIo({
      GRAPH_HISTORY_KEY: server.apiKey,
      GRAPH_HISTORY_URL: url,
      DATA_DIR: join(tmp, 'data'),
      HOME: tmp, // ~/.claude/projects
      CODEX_HOME: join(tmp, 'codex'),
    });
    const program = new Command('graph-history').exitOverride();
    registerWatchCommand(program, io);
    await program.parseAsync(['watch', '--once', ...args], { from: 'user' });
    expect(io.err()).toBe('');
    return io.out();
  }

  it('shares both providers’ sessions of one project in one graph and says what it found per provider', async () => {
    cpSync(CODEX_FIXTURES, join(tmp, 'codex', 'sessions'), { recursive: true });
    const shop = claudeProjectName('/home/dev/shop');
    const projects = join(tmp, '.claude', 'projects');
    cpSync(join(FIXTURES, 'v1-inline-sidechains'), join(projects, shop), { recursive: true });
    const out = await watch();
    expect(out).toMatch(/^Found 1 session in 1 project under .*\.claude\/projects\.$/m);
    expect(out).toMatch(
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
    const out = await watch('--provider', 'codex');
    expect(out).not.toMatch(/Claude Code/);
    expect(server.graphs.size).toBe(2);
    await expect(watch('--provider', 'gemini')).rejects.toThrow(
      /--provider: "gemini" is not one of/,
    );
  });
});
