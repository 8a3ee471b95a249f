import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, lstat, mkdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { binariesUnder, PostgresBinaries } from './embedded-postgres-binaries';

/**
 * Postgres refuses to run as root: started by root, it runs as the `postgres` system user. That
 * user must reach the binaries and the data; when the clone or DATA_DIR is closed to it (a clone
 * under /root or a `mktemp -d` folder), they are kept here instead, where it can.
 */
export const SHARED_ROOT = '/var/lib/graph-history';

export interface SystemUser {
  uid: number;
  gid: number;
}

export const isRoot = (): boolean => process.getuid?.() === 0;

/** The `postgres` system user, created (as a system account without a login) when missing. */
export function postgresSystemUser(): SystemUser {
  const existing = lookupUser('postgres');
  if (existing) return existing;
  const groupExists = spawnSync('getent', ['group', 'postgres'], { stdio: 'ignore' }).status === 0;
  try {
    execFileSync(
      'useradd',
      [
        '--system',
        ...(groupExists ? ['--gid', 'postgres'] : ['--user-group']),
        '--no-create-home',
        '--home-dir',
        SHARED_ROOT,
        '--shell',
        '/usr/sbin/nologin',
        'postgres',
      ],
      { stdio: 'pipe' },
    );
  } catch (err) {
    const why = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
    throw new Error(
      `Embedded Postgres runs as the postgres system user when started as root, and creating that user failed (${why}): ` +
        'create it with `useradd --system postgres`, or set DATABASE_URL.',
    );
  }
  return lookupUser('postgres')!;
}

/** `binaries` when `user` can run them, else a copy of their tree under SHARED_ROOT (made once). */
export async function binariesReachableBy(
  user: SystemUser,
  binaries: PostgresBinaries,
): Promise<PostgresBinaries> {
  if (canRun(user, binaries)) return binaries;
  const copy = binariesUnder(
    path.join(SHARED_ROOT, `postgres-${binaries.version}`),
    binaries.version,
  );
  if (!existsSync(copy.postgres)) {
    await openFolder(SHARED_ROOT);
    // Copied aside, then renamed into place: concurrent starts never see half a tree.
    const partial = `${copy.root}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
    await cp(binaries.root, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rename(partial, copy.root).catch(async (err: NodeJS.ErrnoException) => {
      await rm(partial, { recursive: true, force: true });
      if (!existsSync(copy.postgres)) throw err;
    });
  }
  if (!canRun(user, copy)) {
    throw new Error(
      `The postgres system user cannot run ${copy.postgres} either: check that ${SHARED_ROOT} is on a filesystem that allows executables, or set DATABASE_URL.`,
    );
  }
  return copy;
}

/**
 * The folder Postgres keeps its data in, owned by `user`: `dataDir` when `user` can reach it;
 * otherwise a folder under SHARED_ROOT named after `dataDir`, which `dataDir` then links to (so
 * the data is found again on the next start, and `ls DATA_DIR` shows where it is).
 */
export async function dataDirReachableBy(user: SystemUser, dataDir: string): Promise<string> {
  await mkdir(path.dirname(dataDir), { recursive: true });
  let target = dataDir;
  const link = await lstat(dataDir).catch(() => null);
  if (link?.isSymbolicLink()) {
    target = path.resolve(path.dirname(dataDir), await readlink(dataDir));
  } else if (!canEnter(user, path.dirname(dataDir))) {
    if (link) {
      throw new Error(
        `Embedded Postgres runs as the postgres system user when started as root, and that user cannot reach ${dataDir}: ` +
          `move it aside to start afresh, make its parent folders enterable (\`chmod o+x\`), or set DATABASE_URL.`,
      );
    }
    const name = createHash('sha1').update(dataDir).digest('hex').slice(0, 12);
    target = path.join(SHARED_ROOT, `data-${name}`, 'postgres');
    await openFolder(path.dirname(target));
    await symlink(target, dataDir);
  }
  await mkdir(target, { recursive: true, mode: 0o700 });
  await chown(target, user.uid, user.gid);
  return target;
}

/** A folder (and its missing parents) that anyone may enter, whatever root's umask. */
async function openFolder(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = path.dirname(d)) missing.unshift(d);
  for (const d of missing) {
    await mkdir(d, { recursive: true });
    await chmod(d, 0o755);
  }
}

function lookupUser(name: string): SystemUser | null {
  const id = (flag: string) => {
    const r = spawnSync('id', [flag, name], { encoding: 'utf8' });
    return r.status === 0 ? Number(r.stdout.trim()) : NaN;
  };
  const uid = id('-u');
  const gid = id('-g');
  return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
}

function canRun(user: SystemUser, binaries: PostgresBinaries): boolean {
  return spawnSync(binaries.postgres, ['--version'], { ...user, stdio: 'ignore' }).status === 0;
}

function canEnter(user: SystemUser, dir: string): boolean {
  return spawnSync('test', ['-x', dir], { ...user, stdio: 'ignore' }).status === 0;
}
