import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { conditionalGet } from './conditional-get';

function exchange(ifNoneMatch?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const reply = {
    statusCode: 200,
    header: (name: string, value: string) => ((headers[name.toLowerCase()] = value), reply),
    code: (status: number) => ((reply.statusCode = status), reply),
    removeHeader: (name: string) => (delete headers[name.toLowerCase()], reply),
  };
  const req = { method: 'GET', headers: { 'if-none-match': ifNoneMatch } };
  return { req: req as unknown as FastifyRequest, reply, headers };
}

const sha1Tag = (s: string) => `"${createHash('sha1').update(s, 'utf8').digest('base64url')}"`;

describe('conditionalGet', () => {
  const small = JSON.stringify({ text: 'héllo' });
  const large = JSON.stringify({ data: Array.from({ length: 10_000 }, (_, i) => `ünïcode ${i}`) });

  it('tags a small body with the SHA-1 of its UTF-8 bytes and sends it as it is', () => {
    const { req, reply, headers } = exchange();
    expect(conditionalGet(req, reply as unknown as FastifyReply, small)).toBe(small);
    expect(headers.etag).toBe(sha1Tag(small));
  });

  it('sends a large body as its UTF-8 bytes, under the same tag as the text', () => {
    const { req, reply, headers } = exchange();
    const sent = conditionalGet(req, reply as unknown as FastifyReply, large);
    expect(Buffer.isBuffer(sent)).toBe(true);
    expect((sent as Buffer).toString('utf8')).toBe(large);
    expect(headers.etag).toBe(sha1Tag(large));
  });

  it.each([
    ['small', small],
    ['large', large],
  ])('answers a matching If-None-Match on a %s body with an empty 304', (_, body) => {
    const { req, reply, headers } = exchange(`W/"other", ${sha1Tag(body)}`);
    expect(conditionalGet(req, reply as unknown as FastifyReply, body)).toBe('');
    expect(reply.statusCode).toBe(304);
    expect(headers['content-type']).toBeUndefined();
  });

  it('leaves other statuses alone', () => {
    const { req, reply, headers } = exchange();
    reply.statusCode = 404;
    expect(conditionalGet(req, reply as unknown as FastifyReply, large)).toBe(large);
    expect(headers.etag).toBeUndefined();
  });
});
