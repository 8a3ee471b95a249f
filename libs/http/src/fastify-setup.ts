import type { FastifyInstance } from 'fastify';
import { genReqId } from './request-id';

/** Options for `new FastifyAdapter(...)`: our request ids, no Fastify logger (pino-http logs). */
export const fastifyOptions = (bodyLimit = 1024 * 1024) => ({
  genReqId,
  bodyLimit,
  logger: false,
  trustProxy: true,
  return503OnClosing: true,
});

/** Every response carries `Request-Id: req_…`. */
export function addRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply) => {
    reply.header('Request-Id', req.id);
  });
}
