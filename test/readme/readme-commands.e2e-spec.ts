import { ChildProcess, execFile, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../support/free-port';
import { testQueuePrefix } from '../support/redis-keys';

/**
 * Runs every ```sh block of README.md as written, in order, as a newcomer would: in the clone,
 * with free ports and a scratch DATA_DIR in the environment (so it neither collides with a
 * running service nor touches `.data`), the placeholders `sk_live_…` and the default ports
 * replaced by the real key and ports. A block that runs `pnpm start` runs in the background until
 * its banner is printed and is stopped with Ctrl-C at the end; blocks that read `~/.claude` get a
 * scratch home holding one real transcript. Not run here: `pnpm test`, which is this suite (it
 * must be the command `.ci/run` runs). The benchmarks are a table, not command blocks; the
 * Containers section's commands are a ```shell block (they need a container engine and root), not run.
 */
const REPO = path.resolve(__dirname, '../..');
const README = readFileSync(path.join(REPO, 'README.md'), 'utf8');
const run = promisify(execFile);

interface Block {
  line: number;
  text: string;
}

const blocks: Block[] = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => ({
  line: README.slice(0, m.index).split('\n').length,
  text: m[1]!,
}));
const isSuite = (b: Block) => b.text.trim() === 'pnpm test';
const isServer = (b: Block) => /\bpnpm start\b/.test(b.text);
/** Blocks that read `~/.claude`: they run with a scratch home holding one real transcript. */
const readsClaudeHome = (b: Block) => /\bgraph-history (watch|hooks)\b/.test(b.text);
const TRANSCRIPTS = path.join(REPO, 'test/fixtures/claude-code/v2-subagent-files');

describe('README.md command blocks', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gh-readme-'));
  const claudeHome = path.join(dataDir, 'home');
  const ports = { api: 0, ingest: 0 };
  let env: NodeJS.ProcessEnv;
  let key = '';
  let server: { child: ChildProcess; output: () => string; exited: Promise<number | null> } | null =
    null;
  const written: string[] = [];

  beforeAll(async () => {
    ports.api = await freePort();
    ports.ingest = await freePort();
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(ports.api),
      INGEST_PORT: String(ports.ingest),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      EMBEDDED_REDIS_PORT: String(await freePort()),
      GRAPH_HISTORY_URL: `http://127.0.0.1:${ports.ingest}`,
      REDIS_URL: process.env.REDIS_URL,
      QUEUE_PREFIX: testQueuePrefix(),
      LOG_LEVEL: 'warn',
    };
    const project = path.join(claudeHome, '.claude/projects/-home-me-app');
    mkdirSync(project, { recursive: true });
    cpSync(TRANSCRIPTS, project, { recursive: true, filter: (f) => !f.endsWith('LICENSE') });
  });

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      process.kill(-server.child.pid!, 'SIGKILL');
      await server.exited;
    }
    for (const file of written) rmSync(path.join(REPO, file), { force: true });
    const cluster = path.join(dataDir, 'postgres');
    if (existsSync(cluster) && lstatSync(cluster).isSymbolicLink()) {
      rmSync(path.dirname(realpathSync(cluster)), { recursive: true, force: true });
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  const filled = (text: string): string =>
    text
      .replaceAll('sk_live_…', key)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${ports.api}`)
      .replaceAll('127.0.0.1:3001', `127.0.0.1:${ports.ingest}`)
      .replaceAll('.data/', `${dataDir}/`);

  it('has command blocks, the first of them starting the service', () => {
    expect(blocks.length).toBeGreaterThan(3);
    expect(blocks.findIndex(isServer)).toBe(0);
  });

  it('tests with exactly the command .ci/run runs', () => {
    const suite = blocks.filter(isSuite);
    expect(suite).toHaveLength(1);
    const ci = readFileSync(path.join(REPO, '.ci/run'), 'utf8').trimEnd().split('\n');
    expect(ci.at(-1)).toBe('pnpm test');
  });

  for (const block of blocks.filter((b) => !isSuite(b))) {
    const name = `line ${block.line}: ${block.text.trim().split('\n').join(' ; ')}`;

    if (isServer(block)) {
      it(`${name} (in the background, until its banner)`, async () => {
        const child = spawn('bash', ['-c', filled(block.text)], {
          cwd: REPO,
          env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        server = { child, output: () => output, exited };
        for (const deadline = Date.now() + 180_000; !output.includes('Press Ctrl-C to stop.');) {
          if (child.exitCode !== null || Date.now() > deadline) {
            throw new Error(`no banner (exit ${child.exitCode}):\n${output}`);
          }
          await new Promise((r) => setTimeout(r, 250));
        }
        key = /Bearer (sk_live_\w+)/.exec(output)?.[1] ?? '';
        expect(key).toMatch(/^sk_live_\w{32}$/);
        const home = await fetch(`http://127.0.0.1:${ports.api}/`);
        expect(home.status).toBe(200);
      }, 200_000);
      continue;
    }

    it(
      name,
      async () => {
        expect(key).not.toBe(''); // the service block ran first
        const result = await run('bash', ['-eo', 'pipefail', '-c', filled(block.text)], {
          cwd: REPO,
          env: readsClaudeHome(block) ? { ...env, HOME: claudeHome, GRAPH_HISTORY_KEY: key } : env,
          timeout: 120_000,
        }).catch((err: { code: number; stdout: string; stderr: string }) => {
          throw new Error(`exit ${err.code}:\n${err.stdout}\n${err.stderr}`);
        });
        expect(result.stderr).not.toContain('ELIFECYCLE');
        if (readsClaudeHome(block)) {
          const settings = path.join(claudeHome, '.claude/settings.json');
          // install then uninstall leaves the settings as they were: empty of hooks
          expect(JSON.parse(readFileSync(settings, 'utf8')).hooks ?? {}).toEqual({});
          if (/\bgraph-history watch\b/.test(block.text))
            expect(result.stdout + result.stderr).toMatch(/Found 1 session/);
          if (/hooks install --http/.test(block.text))
            expect(result.stdout).toContain(
              `They post each hook to http://127.0.0.1:${ports.ingest}/ingest/v1/graphs/`,
            );
        }
        if (/^\s*curl /m.test(block.text)) {
          const body = JSON.parse(result.stdout) as { object?: string; error?: unknown };
          expect(body.error).toBeUndefined();
        }
        // Files the block writes hold exactly what the command printed (no pnpm header lines).
        for (const [, file] of block.text.matchAll(/>\s*(\S+\.jsonl?)\b/g)) {
          written.push(file!);
          const lines = readFileSync(path.join(REPO, file!), 'utf8').trimEnd().split('\n');
          expect(lines.length).toBeGreaterThan(0);
          for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
        }
      },
      130_000,
    );
  }

  it('stops the service on Ctrl-C, says it stopped, and exits 0', async () => {
    expect(server).not.toBeNull();
    const before = server!.output().length;
    process.kill(-server!.child.pid!, 'SIGINT');
    expect(await server!.exited).toBe(0);
    const tail = server!.output().slice(before);
    expect(tail.trim()).toBe('Stopping graph-history…\ngraph-history stopped.');
  }, 60_000);
});
