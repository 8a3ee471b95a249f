import type { FastifyInstance } from 'fastify';
import { methodNotAllowed, toEnvelope } from '@graph-history/http';

/** The API is read-only: any method but GET and HEAD is 405 `method_not_allowed`, on every path. */
export function refuseOtherMethods(app: FastifyInstance, docBase: string): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method === 'GET' || req.method === 'HEAD') return done();
    const e = toEnvelope(methodNotAllowed(req.method), {
      requestId: String(req.id),
      method: req.method,
      url: req.url,
      docBase,
    });
    // answered here: the request goes no further (done is not called)
    reply
      .code(e.status)
      .headers({ ...e.headers, Allow: 'GET, HEAD' })
      .send(e.body);
  });
}
