import { toEnvelope } from './error-envelope';

// Structural types: the apps and platform-fastify may resolve different fastify type versions.
interface RequestLike {
  id: unknown;
  method: string;
  url: string;
}
interface ReplyLike {
  code(status: number): { headers(h: Record<string, string>): { send(body: never): unknown } };
}

/** Answers `err` in the error envelope from a Fastify hook or route, outside Nest's filters. */
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
    .headers(e.headers)
    .send(e.body as never);
}
