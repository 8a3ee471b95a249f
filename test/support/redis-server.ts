import { type ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { freePort } from './free-port';
import { waitUntil } from './wait';

/**
 * A redis-server of the test's own, on a free 127.0.0.1 port, without persistence: outage tests
 * stop and restart it (a restarted server is empty, as after a crash without persistence).
 */
export class RedisServer {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  get running(): boolean {
    return this.child !== null;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.restart();
    return server;
  }

  /** Starts the server again on the same port; resolves once it answers PING. */
  async restart(): Promise<void> {
    if (this.child) throw new Error('redis-server is already running');
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ];
    this.child = spawn('redis-server', [...args, '--daemonize', 'no'], { stdio: 'ignore' });
    await waitUntil('redis-server to answer PING', async () => {
      const client = new Redis(this.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        client.disconnect();
      }
    });
  }

  /** Kills it (SIGKILL: an outage, not a shutdown) and resolves once it has exited. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
