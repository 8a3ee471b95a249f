import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { CliError } from '../cli-error';
import { ChildService } from '../start/child-service';

const run = promisify(execFile);

export interface RedisCluster {
  /** `host:port` of every node, comma-separated: a REDIS_CLUSTER_NODES value. */
  nodes: string;
  ports: number[];
  servers: ChildService[];
  /** Starts the node of `ports[i]` again after a fault, with its files; stopped by the caller. */
  restart(i: number): ChildService;
  stop(): Promise<void>;
}

/** Node timeout: a master silent this long is failed, and a replica of it is promoted. */
export const CLUSTER_NODE_TIMEOUT_MS = 2_000;

/**
 * A Redis Cluster, one `redis-server --cluster-enabled yes` per port on 127.0.0.1, made by
 * `redis-cli --cluster create … --cluster-replicas <replicas>`: the first
 * `ports.length / (1 + replicas)` ports are masters sharing the 16,384 slots, the others their
 * replicas (a replica is promoted when its master fails). Resolves once every node reports
 * `cluster_state:ok` and every replica is in sync. Data lives in `dir` (append-only file:
 * acknowledged writes survive a restart of a node).
 */
export async function startRedisCluster(
  ports: number[],
  dir: string,
  replicas = 0,
): Promise<RedisCluster> {
  const servers: ChildService[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop(10_000)));
  };
  try {
    for (const port of ports) {
      await mkdir(path.join(dir, `redis-${port}`), { recursive: true });
      servers.push(serve(port, dir));
    }
    for (const port of ports) await waitFor(() => answers(port, 'PING', 'PONG'), port, servers);
    const addresses = ports.map((p) => `127.0.0.1:${p}`);
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...addresses,
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ],
      { timeout: 30_000 },
    ).catch((err: Error & { stdout?: string }) => {
      throw new CliError(
        `redis-cli --cluster create failed: ${(err.stdout ?? err.message).trim().split('\n').pop()}`,
      );
    });
    for (const port of ports)
      await waitFor(() => answers(port, 'CLUSTER INFO', 'cluster_state:ok'), port, servers);
    for (const port of ports) await waitFor(() => inSyncOrMaster(port), port, servers);
    const restart = (i: number) => serve(ports[i]!, dir);
    return { nodes: addresses.join(','), ports, servers, restart, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** One node, its files in `dir/redis-<port>`. */
function serve(port: number, dir: string): ChildService {
  const nodeDir = path.join(dir, `redis-${port}`);
  return new ChildService(`redis ${port}`, redisNode(port, nodeDir), `${nodeDir}.log`);
}

const redisNode = (port: number, nodeDir: string) => ({
  file: 'redis-server',
  args: [
    '--bind',
    '127.0.0.1',
    '--port',
    String(port),
    '--dir',
    nodeDir,
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    String(CLUSTER_NODE_TIMEOUT_MS),
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
    '--save',
    '',
    '--daemonize',
    'no',
  ],
});

async function answers(port: number, command: string, expected: string): Promise<boolean> {
  try {
    const { stdout } = await run(
      'redis-cli',
      ['-h', '127.0.0.1', '-p', String(port), ...command.split(' ')],
      {
        timeout: 2_000,
      },
    );
    return stdout.includes(expected);
  } catch {
    return false;
  }
}

/** A master, or a replica whose link to its master is up (it can take over). */
async function inSyncOrMaster(port: number): Promise<boolean> {
  try {
    const { stdout } = await run(
      'redis-cli',
      ['-h', '127.0.0.1', '-p', String(port), 'INFO', 'replication'],
      { timeout: 2_000 },
    );
    return stdout.includes('role:master') || stdout.includes('master_link_status:up');
  } catch {
    return false;
  }
}

async function waitFor(
  check: () => Promise<boolean>,
  port: number,
  servers: ChildService[],
  timeoutMs = 20_000,
): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (await check()) return;
    const dead = servers.find((s) => !s.running);
    if (dead) throw new CliError(`${dead.name} exited: ${dead.lastLogLines(3)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new CliError(
    `Redis on 127.0.0.1:${port} did not become ready within ${timeoutMs / 1000} s.`,
  );
}
