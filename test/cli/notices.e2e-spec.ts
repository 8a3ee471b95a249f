import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphHistory, type Notice } from '@graph-history/client';
import { type IssuedKey, Services } from '../conformance/support/services';
import { noticeRun, NOTICE_RUN_NOTICES } from '../support/notice-events';
import { waitUntil } from '../support/wait';
import { cli } from './support/run-cli';

const CLI = join(__dirname, '..', '..', 'apps', 'cli', 'dist', 'main.js');

/** `graph-history notices` (list, --follow, --exec) against the started services. */
describe('graph-history notices', () => {
  let s: Services;
  let key: IssuedKey;
  let env: NodeJS.ProcessEnv;
  let client: GraphHistory;
  let t0 = 1_763_770_000_000;
  const dir = mkdtempSync(join(tmpdir(), 'gh-notices-'));

  const sendRun = (graphKey: string) => s.load(key, graphKey, noticeRun(graphKey, (t0 += 1_000)));

  beforeAll(async () => {
    s = await Services.start();
    key = await s.createKey('notices-cli');
    env = { GRAPH_HISTORY_KEY: key.key, GRAPH_HISTORY_API_URL: s.apiBaseUrl };
    client = new GraphHistory({ apiKey: key.key, baseUrl: s.apiBaseUrl });
    await sendRun('cli-a');
  }, 90_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await s?.stop();
  });

  it('prints the newest notices oldest first, one line each, with the link to the moment', async () => {
    const run = await cli(['notices', '--limit', '3'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const newest = (await client.notices.list({ limit: 3 }).toArray({ limit: 3 })).reverse();
    expect(lines).toHaveLength(3);
    lines.forEach((line, i) => {
      const [, type, graph] = line.split(/\s{2,}/);
      expect([type, graph]).toEqual([newest[i]!.type, 'gph_cli-a']);
      expect(line.endsWith(`  ${newest[i]!.url}`)).toBe(true);
    });
    expect(lines[2]).toMatch(/session "notices cli-a" ended \(completed\)/);
    const asked = await cli(['notices', '--type', 'node.input_required'], env);
    expect(asked.stdout).toMatch(/agent "read" needs you \(permission: Allow rm -rf build\?\)/);
    const json = await cli(['notices', '--json', '--graph', 'cli-a'], env);
    const printed = json.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Notice);
    expect(printed.map((n) => n.type)).toEqual(NOTICE_RUN_NOTICES.map((n) => n.type));
  });

  it('refuses an unknown type on one line', async () => {
    const run = await cli(['notices', '--type', 'node.exploded'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: --type: "node.exploded" is not one of node.input_required/);
  });

  it('--follow --exec runs the command per new notice, with the JSON on stdin and GH_NOTICE_*', async () => {
    const command =
      'cat > "$OUT/$GH_NOTICE_ID.json"; printf "%s|%s|%s\\n" "$GH_NOTICE_TYPE" "$GH_NOTICE_GRAPH_ID" "$GH_NOTICE_MESSAGE" >> "$OUT/log"';
    const child: ChildProcess = spawn(
      process.execPath,
      [CLI, 'notices', '--follow', '--type', 'node.failed,session.ended', '--exec', command],
      { env: { ...process.env, ...env, OUT: dir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const logLines = () => {
      try {
        return readFileSync(join(dir, 'log'), 'utf8').trimEnd().split('\n');
      } catch {
        return [];
      }
    };
    try {
      // it follows from when its stream opened: runs are sent until one reaches it
      for (let probe = 0; logLines().length === 0; probe++) {
        if (probe > 40) throw new Error(`no notice reached the command (stderr: ${stderr})`);
        await sendRun(`cli-probe${probe}`);
        await new Promise((r) => setTimeout(r, 500));
      }
      await waitUntil('the probes to settle', async () => logLines().length % 2 === 0);
      await sendRun('cli-b');
      await waitUntil(`cli-b's two notices (stderr: ${stderr})`, async () =>
        logLines().some((l) => l.startsWith('session.ended|gph_cli-b|')),
      );
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    const listed = await client.notices
      .list({ graph: 'gph_cli-b', type: ['node.failed', 'session.ended'] })
      .toArray({ limit: 10 });
    for (const n of listed)
      expect(JSON.parse(readFileSync(join(dir, `${n.id}.json`), 'utf8'))).toEqual(n);
    expect(logLines().slice(-2)).toEqual([
      'node.failed|gph_cli-b|agent "plan" failed: gave up',
      'session.ended|gph_cli-b|session "notices cli-b" ended (completed)',
    ]);
    // one printed line and one command run per notice of the types asked for, none of cli-a's
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(logLines().length);
    expect(logLines().every((l) => /^(node\.failed|session\.ended)\|/.test(l))).toBe(true);
    expect(logLines().some((l) => l.includes('gph_cli-a'))).toBe(false);
    expect(stdout.trimEnd().split('\n')).toHaveLength(logLines().length);
    expect(stderr).toBe('');
  }, 60_000);
});
