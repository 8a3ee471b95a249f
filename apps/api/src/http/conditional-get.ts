import { createHash } from 'node:crypto';
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
  app.addHook('onSend', async (req, reply, payload) => {
    if (
      reply.statusCode !== 200 ||
      typeof payload !== 'string' ||
      (req.method !== 'GET' && req.method !== 'HEAD')
    )
      return payload;
    const tag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('ETag', tag);
    if (!ifNoneMatchHits(req.headers['if-none-match'], tag)) return payload;
    reply.code(304).removeHeader('content-type');
    return '';
  });
}
