import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@graph-history/cli/cli';
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
});
