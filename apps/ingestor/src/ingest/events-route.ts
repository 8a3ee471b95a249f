import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { methodNotAllowed, sendEnvelope } from '@graph-history/http';

/** The one write endpoint of ingest.md (answered by IngestController for POST). */
export const EVENTS_PATH = 'ingest/v1/graphs/:graph_key/events';

const OTHER_METHODS = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Any other method on a write path (the events path, or `path`) is 405 `method_not_allowed` with
 * `Allow: POST`, answered before the key is checked (as the read API does), rather than the 404
 * of an unknown URL.
 */
export function refuseOtherMethodsOnEvents(
  app: FastifyInstance,
  docBase: string,
  path = EVENTS_PATH,
  what = 'events',
): void {
  const refuse = (req: FastifyRequest, reply: FastifyReply) =>
    sendEnvelope(
      req,
      reply,
      methodNotAllowed(req.method, ['POST'], `send ${what} with POST`),
      docBase,
    );
  app.route({
    method: OTHER_METHODS,
    url: `/${path}`,
    // answered before any body is read, so whatever body came along cannot turn it into a 415
    onRequest: async (req, reply) => refuse(req, reply),
    handler: async (req, reply) => refuse(req, reply),
  });
}
