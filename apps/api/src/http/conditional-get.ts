import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whether an If-None-Match header matches the tag (weak comparison, as RFC 9110 asks for GET). */
export function ifNoneMatchHits(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === tag;
  });
}

/** Bodies from this size are encoded to UTF-8 once, for both the hash and the socket. */
const ENCODE_ONCE_FROM = 64 * 1024;

/**
 * A strong ETag over the exact body of a successful GET/HEAD, so the tag changes exactly when the
 * body would; with a matching If-None-Match the answer becomes 304 without a body. Returns the
 * payload to send (called from the API's onSend hook): a large body as its UTF-8 bytes.
 */
export function conditionalGet(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): unknown {
  if (
    reply.statusCode !== 200 ||
    typeof payload !== 'string' ||
    (req.method !== 'GET' && req.method !== 'HEAD')
  )
    return payload;
  const body = payload.length < ENCODE_ONCE_FROM ? payload : Buffer.from(payload);
  const tag = `"${hash('sha1', body, 'base64url')}"`;
  reply.header('ETag', tag);
  if (!ifNoneMatchHits(req.headers['if-none-match'], tag)) return body;
  reply.code(304).removeHeader('content-type');
  return '';
}
