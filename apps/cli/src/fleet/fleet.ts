import { API_NODE_FLAGS, INGESTOR_NODE_FLAGS } from '@graph-history/config';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, migrateToLatest } from '@graph-history/db';
import { appEntry } from '../paths';
import { AppProcess, waitUntilServing } from '../start/app-process';
import { ChildService } from '../start/child-service';
import { demoAccess } from '../start/demo-account';
import { freePort } from './free-port';
import { startHaproxy } from './haproxy';
import { PostgresPair, startPostgresPair } from './postgres-pair';
import { RedisCluster, startRedisCluster } from './redis-cluster';

export interface FleetOptions {
  /** HAProxy's port for the read API replicas. */
  apiPort: number;
  /** HAProxy's port for the ingestors. */
  ingestPort: number;
  apis?: number;
  ingestors?: number;
  /** Settings passed to every app (LOG_LEVEL, METRICS_TOKEN, rate limits…). */
  env?: NodeJS.ProcessEnv;
}

export interface Fleet {
  apiUrl: string;
  ingestUrl: string;
  /** The demo account's secret key. */
  key: string;
  /** Scratch folder of every server's data and logs (`logs/`), removed by stop(). */
  dir: string;
  postgres: PostgresPair;
  redis: RedisCluster;
  apis: AppProcess[];
  /** Each API replica's own port (127.0.0.1), in the order of `apis`. */
  apiPorts: number[];
  ingestors: AppProcess[];
  ingestPorts: number[];
  haproxy: ChildService;
  /** Every process of the fleet. */
  processes(): ChildService[];
  stop(): Promise<void>;
}

/**
 * A fleet on this machine, everything on 127.0.0.1: a Postgres primary and a streaming replica, a
 * Redis Cluster of three masters each with a replica, `ingestors` ingestors and `apis` API replicas behind HAProxy;
 * the APIs read from the streaming replica (DATABASE_REPLICA_URLS).
 * Starts from empty data each time, with a `demo` account whose key it returns.
 */
export async function startFleet(o: FleetOptions): Promise<Fleet> {
  const dir = await mkdtemp(path.join(tmpdir(), 'graph-history-fleet-'));
  await chmod(dir, 0o755); // the postgres system user reaches its data folders in it
  await mkdir(path.join(dir, 'logs'));
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const postgres = await startPostgresPair(dir, {
      primary: await freePort(),
      replica: await freePort(),
    });
    stops.push(postgres.stop);
    const redisPorts = await distinctPorts(6, 55_000);
    const redis = await startRedisCluster(redisPorts, dir, 1);
    stops.push(redis.stop);
    const key = await prepareDatabase(postgres.primaryUrl, path.join(dir, 'demo-key'));

    const apiUrl = `http://127.0.0.1:${o.apiPort}`;
    const ingestUrl = `http://127.0.0.1:${o.ingestPort}`;
    const env: NodeJS.ProcessEnv = {
      ...o.env,
      DATABASE_URL: postgres.primaryUrl,
      REDIS_CLUSTER_NODES: redis.nodes,
      HOST: '127.0.0.1',
      TRUST_PROXY: 'true',
      PUBLIC_URL: apiUrl,
      LOG_LEVEL: o.env?.LOG_LEVEL ?? 'warn',
    };
    const log = (name: string) => path.join(dir, 'logs', `${name}.log`);
    const ingestPorts = await distinctPorts(o.ingestors ?? 2);
    const apiPorts = await distinctPorts(o.apis ?? 3);
    const ingestors = ingestPorts.map(
      (port, i) =>
        new AppProcess(
          `ingestor ${i + 1}`,
          appEntry('ingestor'),
          { ...env, INGEST_PORT: String(port) },
          log(`ingestor-${i + 1}`),
          INGESTOR_NODE_FLAGS,
        ),
    );
    const apis = apiPorts.map(
      (port, i) =>
        new AppProcess(
          `API ${i + 1}`,
          appEntry('api'),
          { ...env, PORT: String(port), DATABASE_REPLICA_URLS: postgres.replicaUrl },
          log(`api-${i + 1}`),
          API_NODE_FLAGS,
        ),
    );
    const apps = [...ingestors, ...apis];
    stops.push(() => Promise.all(apps.map((a) => a.stop())).then(() => undefined));
    await Promise.all([
      ...ingestors.map((a, i) => waitUntilServing(a, `http://127.0.0.1:${ingestPorts[i]}/healthz`)),
      ...apis.map((a, i) => waitUntilServing(a, `http://127.0.0.1:${apiPorts[i]}/healthz`)),
    ]);
    const haproxy = await startHaproxy(dir, [
      { name: 'api', port: o.apiPort, servers: apiPorts },
      { name: 'ingest', port: o.ingestPort, servers: ingestPorts },
    ]);
    stops.push(() => haproxy.stop(5_000));
    await waitReady(`${apiUrl}/readyz`, haproxy);
    await waitReady(`${ingestUrl}/readyz`, haproxy);
    return {
      apiUrl,
      ingestUrl,
      key,
      dir,
      postgres,
      redis,
      apis,
      apiPorts,
      ingestors,
      ingestPorts,
      haproxy,
      processes: () => [postgres.primary, postgres.replica, ...redis.servers, ...apps, haproxy],
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

async function prepareDatabase(url: string, keyFile: string): Promise<string> {
  const db = createDb(url, { max: 1 });
  try {
    await migrateToLatest(db);
    return (await demoAccess(db, keyFile))!.key;
  } finally {
    await db.destroy();
  }
}

async function distinctPorts(count: number, below?: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort(below));
  return [...ports];
}

/** Waits until `url` (through HAProxy) answers 200: a server behind it passed its health check. */
async function waitReady(url: string, haproxy: ChildService, timeoutMs = 30_000): Promise<void> {
  await waitUntilServing(haproxy, url, timeoutMs);
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    const status = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
      async (r) => (await r.arrayBuffer(), r.status),
      () => 0,
    );
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}
