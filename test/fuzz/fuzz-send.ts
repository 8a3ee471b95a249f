import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FuzzRequest } from './fuzz-requests';

export interface FuzzResponse {
  /** 0 when no status line came back. */
  status: number;
  headers: Record<string, string>;
  body: string;
  ms: number;
}

/**
 * Sends a FuzzRequest on its own connection and reads the answer until the server closes it or
 * the announced body arrived. A body shorter than its Content-Length is followed by a half-close,
 * as a client that gave up sending would do, so the server sees the end instead of waiting.
 */
export function sendFuzz(
  baseUrl: string,
  req: FuzzRequest,
  timeoutMs = 10_000,
): Promise<FuzzResponse> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  const head = Buffer.from(`${req.method} ` as string, 'latin1');
  const headerLines = [['Host', `${hostname}:${port}`], ...req.headers, ['Connection', 'close']]
    .map(([n, v]) => `${n}: ${v}`)
    .join('\r\n');
  const declared = Number(
    req.headers.find(([n]) => n.toLowerCase() === 'content-length')?.[1] ?? NaN,
  );
  const body = req.body ?? Buffer.alloc(0);
  const bytes = Buffer.concat([
    head,
    req.target,
    Buffer.from(` HTTP/1.1\r\n${headerLines}\r\n\r\n`, 'utf8'),
    body,
  ]);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (force: boolean) => {
      if (done) return;
      const parsed = parse(Buffer.concat(chunks), req.method === 'HEAD', force);
      if (!parsed) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parsed, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.on('connect', () => {
      socket.write(bytes);
      if (declared > body.length) socket.end();
    });
    socket.on('data', (d) => {
      chunks.push(d);
      finish(false);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
  });
}

function parse(buf: Buffer, head: boolean, force: boolean): Omit<FuzzResponse, 'ms'> | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return force ? { status: 0, headers: {}, body: buf.toString('latin1') } : undefined;
  const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
  const body = buf.subarray(end + 4);
  const length = Number(headers['content-length'] ?? NaN);
  const complete =
    head || status === 304 || status === 204 || (!Number.isNaN(length) && body.length >= length);
  if (!complete && !force) return undefined;
  // bytes past Content-Length are the next response: the server's answer to what a request sent
  // past its own Content-Length, which HTTP reads as a second request on the connection
  const own = Number.isNaN(length) ? body : body.subarray(0, length);
  return { status, headers, body: head ? '' : own.toString('utf8') };
}
