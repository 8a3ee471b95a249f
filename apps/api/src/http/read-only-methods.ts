import type { FastifyInstance } from 'fastify';
import { methodNotAllowed, sendEnvelope } from '@graph-history/http';

/**
 * The API is read-only: any method but GET and HEAD is 405 `method_not_allowed`, on every path
 * but the `postable` ones (the viewer's sign-in forms), which also take POST.
 */
export function refuseOtherMethods(
  app: FastifyInstance,
  docBase: string,
  postable: ReadonlySet<string> = new Set(),
): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method === 'GET' || req.method === 'HEAD') return done();
    if (req.method === 'POST' && postable.has(req.url.split('?')[0]!)) return done();
    // answered here: the request goes no further (done is not called)
    sendEnvelope(
      req,
      reply,
      methodNotAllowed(req.method, ['GET', 'HEAD'], 'this API only answers GET and HEAD'),
      docBase,
    );
  });
}
