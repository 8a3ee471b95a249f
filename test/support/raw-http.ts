import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawRequestOptions {
  /** Half-close after writing (a body shorter than its Content-Length). */
  endAfterWrite?: boolean;
  timeoutMs?: number;
  /** The client's address (another loopback address, 127.0.0.2, is another client). */
  localAddress?: string;
  /** Sent after `request`, one byte every `trickleMs` (a slow client), until the answer. */
  trickle?: string;
  trickleMs?: number;
}

/**
 * Sends `request` as raw bytes (so it may break HTTP in ways fetch refuses to) and reads the
 * answer until the server closes or the body announced by Content-Length has arrived.
 */
export function rawRequest(
  baseUrl: string,
  request: Buffer | string,
  {
    endAfterWrite = false,
    timeoutMs = 10_000,
    localAddress,
    trickle = '',
    trickleMs = 1_000,
  }: RawRequestOptions = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    let sent = 0;
    const trickler = setInterval(() => {
      if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]!);
    }, trickleMs);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      const parsed = parseResponse(Buffer.concat(chunks));
      if (!parsed) return;
      done = true;
      clearTimeout(timer);
      clearInterval(trickler);
      socket.destroy();
      resolve(parsed);
    };
    const timer = setTimeout(() => {
      clearInterval(trickler);
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => {
      socket.write(request);
      if (endAfterWrite) socket.end();
    });
    socket.on('data', (d) => {
      chunks.push(d);
      finish();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      finish();
      if (!done) {
        clearTimeout(timer);
        clearInterval(trickler);
        reject(new Error(`connection closed without an answer: ${Buffer.concat(chunks)}`));
      }
    });
  });
}

/** A whole response in `buf`, or undefined while more is due. */
function parseResponse(buf: Buffer): RawResponse | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = buf.subarray(end + 4);
  const length = Number(headers['content-length'] ?? NaN);
  if (!Number.isNaN(length) && body.length < length) return undefined;
  return { status: Number(statusLine!.split(' ')[1]), headers, body: body.toString('utf8') };
}
