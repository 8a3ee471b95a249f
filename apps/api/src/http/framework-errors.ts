import { parameterInvalid, toEnvelope } from '@graph-history/http';

/**
 * Fastify's `frameworkErrors`: errors its router raises before any handler (a path with broken
 * percent-encoding) are answered in the error envelope too.
 */
// Structural types: platform-fastify and this app resolve different fastify type versions.
interface RawRequest {
  id: unknown;
  method: string;
  url: string;
}
interface RawReply {
  code(status: number): { headers(h: Record<string, string>): { send(body: never): unknown } };
}

export const frameworkErrors =
  (docBase: string) => (_err: unknown, req: RawRequest, reply: RawReply) => {
    const e = toEnvelope(
      parameterInvalid(null, 'The URL is malformed (bad percent-encoding); encode it properly.'),
      {
        requestId: String(req.id),
        method: req.method,
        url: req.url,
        docBase,
      },
    );
    reply
      .code(e.status)
      .headers(e.headers)
      .send(e.body as never);
  };
