import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import type { Config } from '@graph-history/config';
import { packagedBinaries, PostgresBinaries } from './embedded-postgres-binaries';
import {
  binariesReachableBy,
  dataDirReachableBy,
  isRoot,
  postgresSystemUser,
  SystemUser,
} from './embedded-postgres-root';
import {
  initdb,
  otherServer,
  portTaken,
  runningServerPort,
  spawnServer,
  waitUntilReady,
} from './embedded-postgres-server';

export interface EmbeddedPostgresSettings {
  /** The cluster's own folder; its password is kept next to it in `<dataDir>.password`. */
  dataDir: string;
  port: number;
  database?: string;
}

export interface EmbeddedPostgres {
  url: string;
  /** False when a server already running on this data folder was reused. */
  startedHere: boolean;
  stop(): Promise<void>;
}

const DATABASE = 'graph_history';

let running: Promise<EmbeddedPostgres> | null = null;

/**
 * DATABASE_URL when set; otherwise the URL of an embedded Postgres keeping its data under
 * `${DATA_DIR}/postgres` on 127.0.0.1:EMBEDDED_POSTGRES_PORT, started on first use (or reused when
 * it is already running) and stopped when this process exits.
 */
export async function resolveDatabaseUrl(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'EMBEDDED_POSTGRES_PORT'>,
): Promise<string> {
  if (config.DATABASE_URL) return config.DATABASE_URL;
  const server = await startEmbeddedPostgres({
    dataDir: path.resolve(config.DATA_DIR, 'postgres'),
    port: config.EMBEDDED_POSTGRES_PORT,
  });
  return server.url;
}

/** Stops the embedded server if this process started it; a no-op otherwise. */
export async function stopEmbeddedPostgres(): Promise<void> {
  const current = running;
  running = null;
  if (current) await (await current.catch(() => null))?.stop();
}

/** Starts (once per process) or reuses the embedded Postgres described by `settings`. */
export function startEmbeddedPostgres(
  settings: EmbeddedPostgresSettings,
): Promise<EmbeddedPostgres> {
  running ??= start(settings).catch((err: unknown) => {
    running = null;
    throw err;
  });
  return running;
}

async function start(settings: EmbeddedPostgresSettings): Promise<EmbeddedPostgres> {
  const { dataDir } = settings;
  const database = settings.database ?? DATABASE;
  const passwordFile = `${dataDir}.password`;
  const initialised = existsSync(path.join(dataDir, 'PG_VERSION'));
  let password = existsSync(passwordFile) ? (await readFile(passwordFile, 'utf8')).trim() : null;
  // A server another process runs on this folder is reused on its port, whatever this one's is.
  const port = (initialised && runningServerPort(dataDir)) || settings.port;
  if (initialised && !password) {
    throw new Error(
      `Embedded Postgres data in ${dataDir} has no ${passwordFile}; delete ${dataDir} to start afresh, or set DATABASE_URL.`,
    );
  }
  const url = (db: string) =>
    `postgres://postgres:${encodeURIComponent(password!)}@127.0.0.1:${port}/${db}`;
  const reused = async (): Promise<EmbeddedPostgres> => {
    await ensureDatabase(url('postgres'), database);
    return { url: url(database), startedHere: false, stop: async () => undefined };
  };

  // A server of this data folder that is running (another process's) is reused.
  if (initialised && (await otherServer(dataDir, url('postgres'))) === 'serving') return reused();

  const createdParent = await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  if (createdParent) await chmod(path.dirname(dataDir), 0o755);
  if (await portTaken(port)) {
    throw new Error(
      `Port ${port} (EMBEDDED_POSTGRES_PORT, the embedded Postgres) is already in use on 127.0.0.1: ` +
        `stop what listens there, or set EMBEDDED_POSTGRES_PORT to a free port (or DATABASE_URL to use your own server).`,
    );
  }
  const { binaries, user, clusterDir } = await runtime(dataDir);
  if (!initialised) {
    password = randomBytes(18).toString('base64url');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    await initdb(binaries.initdb, clusterDir, password, user);
  }

  const server = spawnServer(binaries.postgres, clusterDir, port, user);
  const ready = await waitUntilReady(server, url('postgres'));
  if (!ready) {
    server.child.kill('SIGINT');
    if (initialised && (await otherServer(dataDir, url('postgres'))) === 'serving') return reused();
    throw new Error(
      `Embedded Postgres failed to start on port ${port} with data in ${dataDir}: ${server.problem()} ` +
        '(set EMBEDDED_POSTGRES_PORT to use another port, or DATABASE_URL to use your own server).',
    );
  }
  await ensureDatabase(url('postgres'), database);
  return { url: url(database), startedHere: true, stop: server.stop };
}

/**
 * The binaries, the user to run them as (null: this one) and the cluster's folder. As root, that
 * is the `postgres` system user (created if missing), with binaries and data where it can reach them.
 */
async function runtime(
  dataDir: string,
): Promise<{ binaries: PostgresBinaries; user: SystemUser | null; clusterDir: string }> {
  const binaries = await packagedBinaries();
  if (!isRoot()) return { binaries, user: null, clusterDir: dataDir };
  const user = postgresSystemUser();
  return {
    binaries: await binariesReachableBy(user, binaries),
    user,
    clusterDir: await dataDirReachableBy(user, dataDir),
  };
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  client.on('error', () => undefined); // a broken connection fails the query in flight instead
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) {
      await client
        .query(`create database ${client.escapeIdentifier(database)}`)
        .catch((err: { code?: string }) => {
          if (err.code !== '42P04') throw err; // created concurrently by another process
        });
    }
  } finally {
    await client.end();
  }
}
