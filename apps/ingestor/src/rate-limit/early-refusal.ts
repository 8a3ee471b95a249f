import type { FastifyInstance } from 'fastify';
import { sendEnvelope } from '@graph-history/http';
import { IngestRateLimit } from './ingest-rate-limit';

/**
 * A POST whose credentials were refused by the ingest limit moments ago is refused again before
 * its body is read and parsed (see RecentRefusals): a client sending past its limit costs little.
 */
export function refuseRecentlyLimited(
  app: FastifyInstance,
  limit: IngestRateLimit,
  docBase: string,
): void {
  app.addHook('onRequest', (req, reply, done) => {
    const refused = req.method === 'POST' && limit.refusedEarly(req.headers.authorization);
    if (!refused) return done();
    // answered here: the request goes no further (done is not called); Node discards the body
    sendEnvelope(req, reply, refused, docBase);
  });
}
