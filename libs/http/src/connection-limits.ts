import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Open connections in all. */
  total: number;
  /** Open connections per remote address. */
  perAddress: number;
  /** Addresses without a per-address cap (trusted proxies, which carry many clients). */
  exempt: (address: string) => boolean;
}

/**
 * Caps the server's open connections (Node closes any beyond `total` as it accepts them) and the
 * connections of each remote address: one beyond `perAddress` is closed at once, before a byte
 * is read, so one address cannot take the descriptors every other client needs.
 */
export function limitConnections(server: Server, { total, perAddress, exempt }: ConnectionLimits) {
  server.maxConnections = total;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || exempt(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
