import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@graph-history/cli/cli';
import { ProjectGraphKeys } from '@graph-history/cli/watch/project-graph-keys';
import { claudeProjectName } from '@graph-history/cli/watch/projects';
import { captureIo } from './support/capture-io';

describe('graph-history hooks install / uninstall', () => {
  let home: string;
  beforeEach(() => (home = mkdtempSync(join(tmpdir(), 'gh-hooks-'))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const original = `{
  "env": { "FOO": "1" },
  "hooks": {
    "Notification": [
      { "hooks": [{ "type": "command", "command": "notify-send claude" }] }
    ]
  }
}
`;

  it('writes the hooks into the user settings and removes exactly them again', async () => {
    const file = join(home, '.claude', 'settings.json');
    mkdirSync(join(home, '.claude'));
    writeFileSync(file, original);
    const io = captureIo({ HOME: home });
    expect(await runCli(['hooks', 'install', '--inbox', '/tmp/gh-test-inbox'], io)).toBe(0);
    const installed = JSON.parse(readFileSync(file, 'utf8')) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    };
    expect(installed.hooks['Notification']).toHaveLength(2);
    expect(installed.hooks['SubagentStart']![0]!.hooks[0]!.command).toMatch(
      /^d='\/tmp\/gh-test-inbox'; .* # graph-history-hook$/,
    );
    expect(io.out()).toContain(`to ${file}`);

    expect(await runCli(['hooks', 'uninstall'], io)).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(original));
    expect(await runCli(['hooks', 'uninstall'], io)).toBe(0);
    expect(io.out()).toContain(`No graph-history hooks in ${file}.`);
  });

  it('says "already installed" when installing again changes nothing, and "Updated" for another inbox', async () => {
    const file = join(home, '.claude', 'settings.json');
    mkdirSync(join(home, '.claude'));
    writeFileSync(file, original);
    const install = async (inbox: string) => {
      const io = captureIo({ HOME: home });
      expect(await runCli(['hooks', 'install', '--inbox', inbox], io)).toBe(0);
      return io.out();
    };
    expect(await install('/tmp/gh-test-inbox')).toMatch(/^Added graph-history hooks /);
    const written = readFileSync(file, 'utf8');
    expect(await install('/tmp/gh-test-inbox')).toBe(
      `The graph-history hooks are already installed in ${file} (handing over through /tmp/gh-test-inbox); nothing changed.\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe(written);
    expect(await install('/tmp/gh-other-inbox')).toMatch(
      new RegExp(`^Updated graph-history hooks \\(.*\\) in ${file}\\.\n`),
    );
  });

  it('uses the project settings with --project and creates them when missing', async () => {
    const io = captureIo({ HOME: home });
    expect(await runCli(['hooks', 'install', '--project', join(home, 'proj')], io)).toBe(0);
    const file = join(home, 'proj', '.claude', 'settings.json');
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).hooks)).toContain('Stop');
    expect(await runCli(['hooks', 'uninstall', '--project', join(home, 'proj')], io)).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});
  });

  it('leaves a settings file that is not JSON untouched and says so', async () => {
    const file = join(home, 'settings.json');
    writeFileSync(file, '{ nope');
    const io = captureIo({ HOME: home });
    expect(await runCli(['hooks', 'install', '--settings', file], io)).toBe(1);
    expect(io.err()).toMatch(/settings\.json is not valid JSON .*left unchanged/);
    expect(readFileSync(file, 'utf8')).toBe('{ nope');
  });

  describe('--http', () => {
    type Handler = Record<string, unknown>;
    type Settings = { hooks: Record<string, Array<{ matcher?: string; hooks: Handler[] }>> };
    const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Settings;

    it("posts to the ingestor, into the graph `watch` gives the project, merged with the project's own settings", async () => {
      const project = join(home, 'work', 'app');
      const file = join(project, '.claude', 'settings.json');
      mkdirSync(join(project, '.claude'), { recursive: true });
      writeFileSync(file, original);
      const data = join(home, 'data');
      const io = captureIo({ HOME: home, DATA_DIR: data });
      const args = ['hooks', 'install', '--http', '--project', project];
      expect(await runCli([...args, '--url', 'https://ingest.example.com/'], io)).toBe(0);
      const graph = await new ProjectGraphKeys(data).keyFor(claudeProjectName(project));
      const handler = {
        type: 'http',
        url: `https://ingest.example.com/ingest/v1/graphs/${graph}/hooks/claude-code`,
        headers: { Authorization: 'Bearer $GRAPH_HISTORY_KEY' },
        allowedEnvVars: ['GRAPH_HISTORY_KEY'],
        timeout: 5,
      };
      const installed = read(file);
      expect(installed).toMatchObject({ env: { FOO: '1' } });
      expect(installed.hooks['PermissionRequest']).toEqual([{ hooks: [handler] }]);
      expect(installed.hooks['Notification']).toEqual([
        { hooks: [{ type: 'command', command: 'notify-send claude' }] },
        { matcher: 'elicitation_dialog', hooks: [handler] },
      ]);
      for (const event of ['SessionStart', 'SubagentStart', 'SubagentStop', 'PostToolUse', 'Stop'])
        expect(installed.hooks[event]).toEqual([{ hooks: [handler] }]);
      expect(JSON.stringify(installed)).not.toContain('sk_');
      expect(io.out()).toContain(
        `They post each hook to ${handler.url} with the secret key in $GRAPH_HISTORY_KEY`,
      );

      // Installing the command hooks over them replaces them; uninstall leaves the original.
      expect(await runCli(['hooks', 'install', '--project', project], io)).toBe(0);
      expect(JSON.stringify(read(file))).not.toContain('"http"');
      expect(await runCli([...args, '--graph', 'team-share', '--key-env', 'GH_KEY'], io)).toBe(0);
      const again = read(file);
      expect(JSON.stringify(again)).not.toContain('graph-history-hook');
      expect(again.hooks['Stop']![0]!.hooks[0]).toMatchObject({
        url: 'http://127.0.0.1:3001/ingest/v1/graphs/team-share/hooks/claude-code',
        headers: { Authorization: 'Bearer $GH_KEY' },
        allowedEnvVars: ['GH_KEY'],
      });
      expect(await runCli(['hooks', 'uninstall', '--project', project], io)).toBe(0);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(original));
    });

    it('refuses a user-wide install without --graph, and bad names, writing nothing', async () => {
      const io = captureIo({ HOME: home });
      expect(await runCli(['hooks', 'install', '--http'], io)).toBe(1);
      expect(io.err()).toMatch(
        /--http needs the graph to post to: --project <dir> .* or --graph <key>/,
      );
      expect(await runCli(['hooks', 'install', '--http', '--graph', 'a b'], io)).toBe(1);
      expect(
        await runCli(['hooks', 'install', '--http', '--graph', 'g', '--key-env', '$X'], io),
      ).toBe(1);
      expect(io.err()).toMatch(/--key-env: "\$X" is not an environment variable name/);
      expect(() => readFileSync(join(home, '.claude', 'settings.json'))).toThrow(/ENOENT/);
    });
  });
});
