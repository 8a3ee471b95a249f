import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { isRoot, postgresSystemUser } from '@graph-history/db';
import { CliError } from '../cli-error';
import { ChildCommand, ChildService } from '../start/child-service';

const run = promisify(execFile);

type User = ChildCommand['user'];

const SETTINGS = ['listen_addresses=127.0.0.1', 'unix_socket_directories=', 'max_connections=200'];

/**
 * One Postgres server on 127.0.0.1 from this machine's Postgres binaries, its data in
 * `<dir>/<slug>` and its log in `<dir>/logs/<slug>.log` (the slug: its name, dashed). Started as root, it runs as the
 * `postgres` system user (Postgres refuses root). It can be stopped, killed and started again on
 * the same data (fault tests).
 */
export class PostgresServer {
  readonly bin = postgresBinDir();
  readonly user: User = isRoot() ? postgresSystemUser() : undefined;
  readonly dataDir: string;
  private readonly slug: string;
  private current: ChildService | null = null;

  constructor(
    private readonly dir: string,
    readonly name: string,
    readonly port: number,
    private readonly settings: readonly string[] = [],
  ) {
    this.slug = name.replace(/ /g, '-');
    this.dataDir = path.join(dir, this.slug);
  }

  /** The running server process (fault injection signals it). */
  get service(): ChildService {
    if (!this.current) throw new Error(`${this.name} was never started`);
    return this.current;
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Creates its data folder (trust authentication for 127.0.0.1). */
  async init(): Promise<void> {
    await this.ownedDataDir();
    await this.runAs('initdb', [
      '-D',
      this.dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
    ]);
  }

  /** An empty data folder of its own, owned by the server's user (for pg_basebackup). */
  async ownedDataDir(): Promise<string> {
    await mkdir(path.join(this.dir, 'logs'), { recursive: true });
    await mkdir(this.dataDir, { recursive: true });
    await chmod(this.dataDir, 0o700);
    if (this.user) await chown(this.dataDir, this.user.uid, this.user.gid);
    return this.dataDir;
  }

  /** Starts the server and resolves once it accepts connections. */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.current?.running) throw new Error(`${this.name} is already running`);
    const settings = [...SETTINGS, ...this.settings];
    const args = [
      '-D',
      this.dataDir,
      '-p',
      String(this.port),
      ...settings.flatMap((s) => ['-c', s]),
    ];
    this.current = new ChildService(
      this.name,
      { file: path.join(this.bin, 'postgres'), args, user: this.user },
      path.join(this.dir, 'logs', `${this.slug}.log`),
    );
    await this.waitAccepting(timeoutMs);
  }

  /** Fast shutdown (SIGINT: sessions are ended, the server exits cleanly). */
  async stop(): Promise<void> {
    await this.current?.stop(20_000, 'SIGINT');
  }

  /**
   * SIGKILL to the server and its backends at once (its machine crashed); start() recovers. Each
   * backend leads a process group of its own, so they are signalled one by one (Linux lists them
   * in /proc; elsewhere, orphaned, they end themselves when they notice).
   */
  async kill(): Promise<void> {
    const service = this.current;
    if (!service?.running) return;
    const pid = service.pid!;
    for (const p of [pid, ...childPids(pid)]) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await service.exited;
  }

  /** Runs one of the server's binaries (psql, pg_basebackup…) as its user. */
  async runAs(binary: string, args: string[]): Promise<void> {
    await run(path.join(this.bin, binary), args, {
      ...this.user,
      timeout: 120_000,
      cwd: '/',
    }).catch((err: Error & { stderr?: string }) => {
      throw new CliError(
        `${binary} failed: ${(err.stderr || err.message).trim().split('\n').pop()}`,
      );
    });
  }

  private async waitAccepting(timeoutMs: number): Promise<void> {
    const server = this.service;
    const ready = () =>
      run(path.join(this.bin, 'pg_isready'), [
        '-h',
        '127.0.0.1',
        '-p',
        String(this.port),
        '-t',
        '1',
      ]).then(
        () => true,
        () => false,
      );
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
      if (!server.running)
        throw new CliError(`The ${server.name} exited: ${server.lastLogLines(4)}`);
      if (await ready()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new CliError(
      `The ${server.name} did not accept connections within ${timeoutMs / 1000} s.`,
    );
  }
}

/** Debian's newest /usr/lib/postgresql/N/bin, else `pg_config --bindir`'s folder, with initdb. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_basebackup')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(root, versions[0], 'bin');
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_basebackup')))
      return dir;
  }
  throw new CliError(
    'The fleet needs the Postgres server binaries (initdb, postgres, pg_basebackup): install them (`apt-get install postgresql`) or use docker-compose.fleet.yml.',
  );
}

function childPids(pid: number): number[] {
  try {
    const list = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
    return list.split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
