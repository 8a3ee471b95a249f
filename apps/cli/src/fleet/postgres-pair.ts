import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { isRoot, postgresSystemUser } from '@graph-history/db';
import { CliError } from '../cli-error';
import { ChildCommand, ChildService } from '../start/child-service';

const run = promisify(execFile);

export const FLEET_DATABASE = 'graph_history';

export interface PostgresPair {
  primaryUrl: string;
  /** A hot standby fed by WAL streaming from the primary (read-only). */
  replicaUrl: string;
  primary: ChildService;
  replica: ChildService;
  stop(): Promise<void>;
}

type User = ChildCommand['user'];

/**
 * A Postgres primary (`wal_level=replica`) and one streaming replica made from it with
 * `pg_basebackup -R`, both on 127.0.0.1 from this machine's Postgres binaries, their data in
 * `dir`. Started as root, they run as the `postgres` system user (Postgres refuses root).
 */
export async function startPostgresPair(
  dir: string,
  ports: { primary: number; replica: number },
): Promise<PostgresPair> {
  const bin = postgresBinDir();
  const user: User = isRoot() ? postgresSystemUser() : undefined;
  const primaryDir = await ownedDir(path.join(dir, 'pg-primary'), user);
  const replicaDir = await ownedDir(path.join(dir, 'pg-replica'), user);
  const servers: ChildService[] = [];
  const stop = async () => {
    // fast shutdown (SIGINT); the replica first, so it does not wait on a vanished primary
    for (const s of [...servers].reverse()) await s.stop(20_000, 'SIGINT');
  };
  try {
    await runAs(
      path.join(bin, 'initdb'),
      ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'],
      user,
    );
    const primary = server('postgres primary', bin, primaryDir, ports.primary, user, dir);
    servers.push(primary);
    await waitAccepting(bin, ports.primary, primary);
    const onPrimary = ['-h', '127.0.0.1', '-p', String(ports.primary), '-U', 'postgres'];
    await runAs(
      path.join(bin, 'psql'),
      [...onPrimary, '-c', `CREATE DATABASE ${FLEET_DATABASE}`],
      user,
    );
    await runAs(
      path.join(bin, 'pg_basebackup'),
      [...onPrimary, '-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast'],
      user,
    );
    const replica = server('postgres replica', bin, replicaDir, ports.replica, user, dir);
    servers.push(replica);
    await waitAccepting(bin, ports.replica, replica);
    return {
      primaryUrl: `postgres://postgres@127.0.0.1:${ports.primary}/${FLEET_DATABASE}`,
      replicaUrl: `postgres://postgres@127.0.0.1:${ports.replica}/${FLEET_DATABASE}`,
      primary,
      replica,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

const SETTINGS = [
  'listen_addresses=127.0.0.1',
  'unix_socket_directories=',
  'wal_level=replica',
  'max_wal_senders=5',
  'hot_standby=on',
  'max_connections=200',
];

function server(name: string, bin: string, dataDir: string, port: number, user: User, dir: string) {
  const args = ['-D', dataDir, '-p', String(port), ...SETTINGS.flatMap((s) => ['-c', s])];
  return new ChildService(
    name,
    { file: path.join(bin, 'postgres'), args, user },
    path.join(dir, 'logs', `${name.replace(' ', '-')}.log`),
  );
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

async function ownedDir(dir: string, user: User): Promise<string> {
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o700);
  if (user) await chown(dir, user.uid, user.gid);
  return dir;
}

async function runAs(file: string, args: string[], user: User): Promise<void> {
  await run(file, args, { ...user, timeout: 120_000, cwd: '/' }).catch(
    (err: Error & { stderr?: string }) => {
      throw new CliError(
        `${path.basename(file)} failed: ${(err.stderr || err.message).trim().split('\n').pop()}`,
      );
    },
  );
}

async function waitAccepting(
  bin: string,
  port: number,
  server: ChildService,
  timeoutMs = 60_000,
): Promise<void> {
  const ready = () =>
    run(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-t', '1']).then(
      () => true,
      () => false,
    );
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (!server.running) throw new CliError(`The ${server.name} exited: ${server.lastLogLines(4)}`);
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new CliError(`The ${server.name} did not accept connections within ${timeoutMs / 1000} s.`);
}
