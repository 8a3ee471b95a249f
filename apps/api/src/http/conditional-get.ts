import { hash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Whether an If-None-Match header matches the tag (weak comparison, as RFC 9110 asks for GET). */
export function ifNoneMatchHits(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === tag;
  });
}

/**
 * Strong ETags over the exact body of every successful GET/HEAD, so the tag changes exactly when
 * the body would; a matching If-None-Match is answered 304 without a body.
 */
export function addConditionalGet(app: FastifyInstance): void {
  // callback style: no promise per response on the hottest path
  app.addHook('onSend', (req, reply, payload, done) => {
    if (
      reply.statusCode !== 200 ||
      typeof payload !== 'string' ||
      (req.method !== 'GET' && req.method !== 'HEAD')
    )
      return done(null, payload);
    const tag = `"${hash('sha1', payload, 'base64url')}"`;
    reply.header('ETag', tag);
    if (!ifNoneMatchHits(req.headers['if-none-match'], tag)) return done(null, payload);
    reply.code(304).removeHeader('content-type');
    done(null, '');
  });
}
