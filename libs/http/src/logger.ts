import type { Params } from 'nestjs-pino';
import type { IncomingMessage } from 'node:http';
import { genReqId } from './request-id';

/** nestjs-pino options: JSON logs, one line per request, carrying the request id. */
export function loggerParams(level: string, name: string): Params {
  return {
    pinoHttp: {
      name,
      level,
      genReqId: (req: IncomingMessage) => genReqId(req),
      customProps: (req: IncomingMessage) => ({ requestId: (req as { requestId?: string }).requestId }),
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
      autoLogging: { ignore: (req: IncomingMessage) => /^\/(healthz|readyz|metrics)/.test(req.url ?? '') },
    },
  };
}
