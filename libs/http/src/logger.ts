import type { Params } from 'nestjs-pino';
import type { IncomingMessage } from 'node:http';
import { redactRequestUrl } from './redact-secrets';
import { genReqId } from './request-id';

/** Called constantly by probes and scrapers: not worth a log line each. */
const UNLOGGED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The request's path. pino-http runs as Nest middleware, which on Fastify (middie) strips the
 * middleware's mount path from `url` (`/healthz` arrives as `/`); `originalUrl` keeps it whole.
 */
const requestPath = (req: IncomingMessage & { originalUrl?: string }): string =>
  (req.originalUrl ?? req.url ?? '').split('?')[0]!;

/** nestjs-pino options: JSON logs, one line per request, carrying the request id. */
export function loggerParams(level: string, name: string): Params {
  return {
    pinoHttp: {
      name,
      level,
      genReqId: (req: IncomingMessage) => genReqId(req),
      customProps: (req: IncomingMessage) => ({
        requestId: (req as { requestId?: string }).requestId,
      }),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
        censor: '[redacted]',
      },
      // the URL is logged (the query is in it) with secrets taken out of it
      serializers: {
        req: (req: { url?: string; query?: unknown }) => ({
          ...req,
          url: redactRequestUrl(req.url ?? ''),
          query: undefined,
        }),
      },
      autoLogging: { ignore: (req: IncomingMessage) => UNLOGGED_PATHS.has(requestPath(req)) },
    },
  };
}
