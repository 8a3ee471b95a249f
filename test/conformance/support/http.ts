import { type IncomingHttpHeaders, request } from 'node:http';

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed JSON body; undefined when the body is empty or not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface HttpOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Client source address. Each suite uses its own 127.x.y.z so that per-address limits (the
   * invalid-key brute-force guard) never mix suites that run at the same time.
   */
  localAddress?: string;
}

/** One plain HTTP request, as any client would send it. */
export function httpCall(url: string, options: HttpOptions = {}): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: {
          ...(options.body !== undefined
            ? {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(options.body)),
              }
            : {}),
          ...options.headers,
        },
        localAddress: options.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text.length > 0 ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A server may answer (413) and close before it has read the whole body: keep its answer.
      if (answered) return;
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET')
        setTimeout(() => answered || reject(err), 500);
      else reject(err);
    });
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** A loopback source address of its own (127.0.0.0/8 is all local on Linux). */
export function uniqueLoopbackAddress(): string {
  const byte = () => 1 + Math.floor(Math.random() * 254);
  return `127.${byte()}.${byte()}.${byte()}`;
}
