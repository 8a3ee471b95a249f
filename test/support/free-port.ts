import { createServer, type Server } from 'node:net';

export { freePort } from '@graph-history/cli/fleet/free-port';

/**
 * Two distinct TCP ports on 127.0.0.1 that were free a moment ago: both are held open until both
 * are taken, so two services started together are never handed the same port.
 */
export async function twoFreePorts(): Promise<[number, number]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    }
    const [a, b] = servers.map((s) => (s.address() as { port: number }).port);
    return [a!, b!];
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}
