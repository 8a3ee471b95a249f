import { toEnvelope } from './error-envelope';
import { DATA_HEADERS } from './security-headers';

// Structural types: the apps and platform-fastify may resolve different fastify type versions.
export interface RequestLike {
  id: unknown;
  method: string;
  url: string;
}
export interface ReplyLike {
  code(status: number): { headers(h: Record<string, string>): { send(body: never): unknown } };
}

/**
 * Answers `err` in the error envelope from a Fastify hook or route, outside Nest's filters (the
 * Request-Id and security headers are set here: router errors skip the onSend hooks).
 */
export function sendEnvelope(
  req: RequestLike,
  reply: ReplyLike,
  err: unknown,
  docBase: string,
): unknown {
  const e = toEnvelope(err, {
    requestId: String(req.id),
    method: req.method,
    url: req.url,
    docBase,
  });
  return reply
    .code(e.status)
    .headers({ ...DATA_HEADERS, ...e.headers, 'Request-Id': String(req.id) })
    .send(e.body as never);
}
