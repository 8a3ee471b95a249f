import type { FastifyInstance } from 'fastify';
import { genReqId } from './request-id';

/**
 * Options for `new FastifyAdapter(...)`: our request ids, no Fastify logger (pino-http logs).
 * X-Forwarded-For is believed only behind a trusted proxy, else clients could pick their address.
 */
export const fastifyOptions = (bodyLimit = 1024 * 1024, trustProxy = false) => ({
  genReqId,
  bodyLimit,
  logger: false,
  trustProxy,
  return503OnClosing: true,
});

/** Every response carries `Request-Id: req_…`. */
export function addRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply) => {
    reply.header('Request-Id', req.id);
  });
}
