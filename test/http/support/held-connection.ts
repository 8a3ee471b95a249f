import { connect, Socket } from 'node:net';

/**
 * A connection from `localAddress` that the server has served once (GET /healthz, kept alive) and
 * that stays open until destroyed; rejects if the server closes it without an answer.
 */
export function heldConnection(baseUrl: string, localAddress = '127.0.0.1'): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    socket.on('error', () => undefined);
    socket.on('connect', () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'),
    );
    socket.once('data', (d) =>
      /^HTTP\/1\.1 200/.test(d.toString('latin1'))
        ? resolve(socket)
        : reject(new Error(`answered ${d.toString('latin1').split('\r\n')[0]}`)),
    );
    socket.once('close', () => reject(new Error('closed without an answer')));
  });
}
