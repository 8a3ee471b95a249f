import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptResult } from '@graph-history/db';
import type { CheckedWebhookUrl } from './webhook-url';

/** Bytes of a receiver's answer read (and dropped) before the connection is closed. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs `body` to the checked URL, connecting to its checked address (Host and TLS name stay the
 * URL's). Redirects are not followed (a 3xx is a failed attempt). The attempt fails when the
 * whole answer has not arrived within `timeoutMs`.
 */
export function postWebhook(
  target: CheckedWebhookUrl,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<AttemptResult> {
  const started = Date.now();
  const t0 = performance.now();
  const done = (statusCode: number | null, error: string | null): AttemptResult => ({
    started,
    durationMs: performance.now() - t0,
    statusCode,
    error,
  });
  const lookup = ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as unknown as LookupFunction;
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(target.url, {
      method: 'POST',
      agent: false,
      lookup,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'graph-history-webhooks/1',
        ...headers,
      },
    });
    const timeout = `timed out after ${timeoutMs} ms`;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error(timeout));
    }, timeoutMs);
    const finish = (result: AttemptResult) => {
      clearTimeout(timer);
      resolve(result);
    };
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish(done(null, timedOut || !err.code ? err.message : `${err.code}: ${err.message}`)),
    );
    req.on('response', (res: IncomingMessage) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const settle = () => {
        req.destroy();
        finish(timedOut ? done(null, timeout) : done(res.statusCode ?? null, null));
      };
      res.on('end', settle);
      res.on('close', settle);
      res.on('error', settle);
    });
    req.end(body);
  });
}
