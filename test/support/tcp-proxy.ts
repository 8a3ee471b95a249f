import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './free-port';

/**
 * A TCP relay on 127.0.0.1 in front of a service, for tests that break connections: `cut()`
 * destroys every open connection, `down()` refuses new ones until `up()`. `opened` counts the
 * connections accepted.
 */
export class TcpProxy {
  opened = 0;
  private readonly sockets = new Set<Socket>();
  private refusing = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: string): Promise<TcpProxy> {
    const { hostname, port } = new URL(target);
    const server = createServer();
    const proxy = new TcpProxy(server, await freePort());
    server.on('connection', (client) => proxy.relay(client, hostname, Number(port)));
    await new Promise<void>((resolve) => server.listen(proxy.port, '127.0.0.1', resolve));
    return proxy;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Connections open now (each client side and its upstream count once together). */
  get openConnections(): number {
    return this.sockets.size / 2;
  }

  cut(): void {
    for (const s of this.sockets) s.destroy();
  }

  down(): void {
    this.refusing = true;
    this.cut();
  }

  up(): void {
    this.refusing = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private relay(client: Socket, host: string, port: number): void {
    if (this.refusing) return void client.destroy();
    this.opened++;
    const upstream = createConnection({ host, port });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
    }
  }
}
