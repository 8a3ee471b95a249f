import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendEnvelope } from '@graph-history/http';
import { IngestRateLimit } from './ingest-rate-limit';

/** How long a request of credentials refused lately is held before its answer. */
const HOLD_MS = 1_000;

/**
 * A POST whose credentials were refused by the ingest limit moments ago (see RecentRefusals) is
 * held, before its body is read or parsed, until that refusal ends or for HOLD_MS: then it goes on
 * as usual, or is refused with what is left to wait. So a client that ignores Retry-After gets at
 * most one answer a second per connection, each costing next to nothing.
 */
export function holdRecentlyLimited(
  app: FastifyInstance,
  limit: IngestRateLimit,
  docBase: string,
): void {
  const check = (req: FastifyRequest, reply: FastifyReply, done: () => void, held: boolean) => {
    const refusal =
      req.method === 'POST' ? limit.earlyRefusal(req.headers.authorization) : undefined;
    if (!refusal) return done();
    if (!held) {
      setTimeout(() => check(req, reply, done, true), Math.min(HOLD_MS, refusal.msLeft));
      return;
    }
    // answered here: the request goes no further (done is not called); Node discards the body
    sendEnvelope(req, reply, refusal.error(), docBase);
  };
  app.addHook('onRequest', (req, reply, done) => check(req, reply, done, false));
}
