import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RedisCluster, startRedisCluster } from '@graph-history/cli/fleet/redis-cluster';
import { freePort } from './free-port';

export interface TestRedisCluster extends RedisCluster {
  dir: string;
}

/** A real 3-master Redis Cluster on free 127.0.0.1 ports, its files in a scratch folder. */
export async function startTestRedisCluster(): Promise<TestRedisCluster> {
  const ports: number[] = [];
  while (ports.length < 3) {
    const port = await freePort();
    // a cluster node also listens on port + 10000 (its bus)
    if (port < 55_000 && !ports.includes(port)) ports.push(port);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'gh-redis-cluster-'));
  const cluster = await startRedisCluster(ports, dir);
  return {
    ...cluster,
    dir,
    stop: async () => {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
