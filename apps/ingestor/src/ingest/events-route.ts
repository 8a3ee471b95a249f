import type { FastifyInstance } from 'fastify';
import { methodNotAllowed, sendEnvelope } from '@graph-history/http';

/** The one write endpoint of ingest.md (answered by IngestController for POST). */
export const EVENTS_PATH = 'ingest/v1/graphs/:graph_key/events';

const OTHER_METHODS = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Any other method on the events path is 405 `method_not_allowed` with `Allow: POST`, answered
 * before the key is checked (as the read API does), rather than the 404 of an unknown URL.
 */
export function refuseOtherMethodsOnEvents(app: FastifyInstance, docBase: string): void {
  app.route({
    method: OTHER_METHODS,
    url: `/${EVENTS_PATH}`,
    // outside Nest's filters: a body Fastify refuses (415, 413) is answered in the envelope too
    errorHandler: (err, req, reply) => sendEnvelope(req, reply, err, docBase),
    handler: async (req, reply) =>
      sendEnvelope(
        req,
        reply,
        methodNotAllowed(req.method, ['POST'], 'send events with POST'),
        docBase,
      ),
  });
}
