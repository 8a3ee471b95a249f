import { ChildService } from '../start/child-service';
import { PostgresServer } from './postgres-server';

export const FLEET_DATABASE = 'graph_history';

export interface PostgresPair {
  primaryUrl: string;
  /** A hot standby fed by WAL streaming from the primary (read-only). */
  replicaUrl: string;
  primary: ChildService;
  replica: ChildService;
  stop(): Promise<void>;
}

const SETTINGS = ['wal_level=replica', 'max_wal_senders=5', 'hot_standby=on'];

/**
 * A Postgres primary (`wal_level=replica`) and one streaming replica made from it with
 * `pg_basebackup -R`, both on 127.0.0.1 (see PostgresServer), their data in `dir`.
 */
export async function startPostgresPair(
  dir: string,
  ports: { primary: number; replica: number },
): Promise<PostgresPair> {
  const primary = new PostgresServer(dir, 'postgres primary', ports.primary, SETTINGS);
  const replica = new PostgresServer(dir, 'postgres replica', ports.replica, SETTINGS);
  const started: PostgresServer[] = [];
  const stop = async () => {
    // fast shutdown; the replica first, so it does not wait on a vanished primary
    for (const s of [...started].reverse()) await s.stop();
  };
  try {
    await primary.init();
    started.push(primary);
    await primary.start();
    const onPrimary = ['-h', '127.0.0.1', '-p', String(ports.primary), '-U', 'postgres'];
    await primary.runAs('psql', [...onPrimary, '-c', `CREATE DATABASE ${FLEET_DATABASE}`]);
    const replicaDir = await replica.ownedDataDir();
    await replica.runAs('pg_basebackup', [
      ...onPrimary,
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    started.push(replica);
    await replica.start();
    return {
      primaryUrl: primary.url(FLEET_DATABASE),
      replicaUrl: replica.url(FLEET_DATABASE),
      primary: primary.service,
      replica: replica.service,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
