import { createServer, request, type Server } from 'node:http';
import { freePort } from './free-port';

/**
 * An HTTP relay on 127.0.0.1 in front of a service that records each request's path (with its
 * query) and passes answers through as they come (event streams included).
 */
export class RecordingProxy {
  readonly paths: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: string): Promise<RecordingProxy> {
    const { hostname, port } = new URL(target);
    const server = createServer();
    const proxy = new RecordingProxy(server, await freePort());
    server.on('request', (req, res) => {
      proxy.paths.push(req.url!);
      const upstream = request(
        { host: hostname, port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(proxy.port, '127.0.0.1', resolve));
    return proxy;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
