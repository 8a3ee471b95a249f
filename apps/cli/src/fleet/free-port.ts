import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago, below `below` (Redis Cluster: port + 10000 too). */
export async function freePort(below = 65_536): Promise<number> {
  for (;;) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    if (port < below) return port;
  }
}
