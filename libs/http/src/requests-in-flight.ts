import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error';
import { sendEnvelope } from './send-envelope';

const tooManyInFlight = (limit: number): ApiError =>
  new ApiError(
    429,
    'rate_limit_error',
    'rate_limit',
    `Too many requests in flight from your address (at most ${limit} at once); wait 1 second, or for an answer, before sending more.`,
    null,
    {},
    { 'Retry-After': '1' },
  );

/**
 * Behind trusted proxies every connection comes from a proxy, so the per-address connection cap
 * cannot tell clients apart: a request that came through one counts against its forwarded client
 * address (`req.ip`), which may have at most `perClient` requests in flight (429 beyond).
 */
export function limitRequestsInFlight(
  app: FastifyInstance,
  {
    perClient,
    viaProxy,
    docBase,
  }: { perClient: number; viaProxy: (peer: string) => boolean; docBase: string },
): void {
  const inFlight = new Map<string, number>();
  app.addHook('onRequest', (req, reply, done) => {
    const peer = req.socket.remoteAddress;
    if (peer === undefined || !viaProxy(peer)) return done();
    const client = req.ip;
    const count = (inFlight.get(client) ?? 0) + 1;
    if (count > perClient) {
      void sendEnvelope(req, reply, tooManyInFlight(perClient), docBase);
      return;
    }
    inFlight.set(client, count);
    reply.raw.once('close', () => {
      const left = inFlight.get(client)! - 1;
      if (left === 0) inFlight.delete(client);
      else inFlight.set(client, left);
    });
    done();
  });
}
