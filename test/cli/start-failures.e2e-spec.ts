import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../support/free-port';

const CLI = path.resolve(__dirname, '../../apps/cli/dist/main.js');
const run = promisify(execFile);

/** `graph-history start` (the built CLI) that is expected to fail: its exit code and output. */
async function failingStart(env: NodeJS.ProcessEnv) {
  const err = (await run(process.execPath, [CLI, 'start'], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
    timeout: 45_000,
  }).then(
    (r) => ({ ...r, code: 0 }),
    (e: unknown) => e,
  )) as { code: number; stdout: string; stderr: string };
  return { code: err.code, stdout: err.stdout, stderr: err.stderr };
}

async function occupy(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

describe('graph-history start fails in one line naming the cause and the fix', () => {
  let dir: string;
  let base: NodeJS.ProcessEnv;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gh-start-fail-'));
    base = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      DATA_DIR: dir,
      PORT: String(await freePort()),
      INGEST_PORT: String(await freePort()),
    };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const expectOneLine = (r: { code: number; stdout: string; stderr: string }, pattern: RegExp) => {
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  };

  it.each([
    ['PORT', 'the read API'],
    ['INGEST_PORT', 'the ingestor'],
  ])('when %s is taken', async (variable, what) => {
    const { server, port } = await occupy();
    try {
      const r = await failingStart({ ...base, [variable]: String(port) });
      expectOneLine(
        r,
        new RegExp(
          `^error: Port ${port} \\(${variable}, ${what}\\) is already in use on 127\\.0\\.0\\.1: stop what listens there .*, or set ${variable} to a free port\\.$`,
          'm',
        ),
      );
    } finally {
      server.close();
    }
  });

  it('when the embedded Postgres port is taken', async () => {
    const { server, port } = await occupy();
    try {
      const r = await failingStart({
        ...base,
        DATABASE_URL: undefined,
        EMBEDDED_POSTGRES_PORT: String(port),
      });
      expectOneLine(
        r,
        new RegExp(
          `^error: Port ${port} \\(EMBEDDED_POSTGRES_PORT, the embedded Postgres\\) is already in use on 127\\.0\\.0\\.1: stop what listens there, or set EMBEDDED_POSTGRES_PORT to a free port`,
        ),
      );
    } finally {
      server.close();
    }
  });

  it('when DATA_DIR cannot be written', async () => {
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    const r = await failingStart({ ...base, DATA_DIR: path.join(file, 'data') });
    expectOneLine(
      r,
      /^error: DATA_DIR .*a-file\/data is not a folder this user can write \(ENOTDIR\): fix its permissions, or set DATA_DIR to another folder\.$/m,
    );
  });

  it('when the database refuses the connection', async () => {
    const port = await freePort();
    const r = await failingStart({
      ...base,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x`,
    });
    expectOneLine(
      r,
      new RegExp(
        `^error: Postgres at 127\\.0\\.0\\.1:${port} refused the connection \\(.*ECONNREFUSED.*\\): start it or fix DATABASE_URL, or unset DATABASE_URL to use the embedded Postgres\\.$`,
        'm',
      ),
    );
  });
});
