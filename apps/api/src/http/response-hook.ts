import type { FastifyInstance } from 'fastify';
import { setResponseHeaders } from '@graph-history/http';
import type { FairShare } from '../rate-limit/fair-share';
import { conditionalGet } from './conditional-get';

/**
 * The API's one onSend hook (one hook per response costs less than three): the Request-Id and security headers,
 * then the fair share's charge for what the request built (before the ETag step, which empties
 * 304 bodies: a request costs what it built), then the ETag and the 304. Callback style, and a
 * promise only when the charge has to wait for Redis. `fairShare` is read per response: it exists
 * once the Nest application is created, after the hook is added.
 */
export function addResponseHook(
  app: FastifyInstance,
  fairShare: () => FairShare | undefined,
): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    setResponseHeaders(req, reply);
    const charged = fairShare()?.settle(req, reply, payload);
    if (!charged) return done(null, conditionalGet(req, reply, payload));
    charged.then(() => done(null, conditionalGet(req, reply, payload)), done);
  });
}
