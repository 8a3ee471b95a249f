import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `request` as raw bytes (so it may break HTTP in ways fetch refuses to) and reads the
 * answer until the server closes or the body announced by Content-Length has arrived. With
 * `endAfterWrite`, the client half-closes after writing (a body shorter than its Content-Length).
 */
export function rawRequest(
  baseUrl: string,
  request: Buffer | string,
  { endAfterWrite = false, timeoutMs = 10_000 } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      const parsed = parseResponse(Buffer.concat(chunks));
      if (!parsed) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parsed);
    };
    const timer = setTimeout(() => {
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
