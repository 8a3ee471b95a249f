import type { FastifyInstance } from 'fastify';

/**
 * Bodies are JSON only: Fastify's built-in text/plain parser is removed (and Nest's form parser is
 * never registered), so any other media type is 415 `unsupported_media_type` before the body is
 * read, instead of a string or a form reaching the handler as if it were the event batch.
 */
export function acceptOnlyJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
}
