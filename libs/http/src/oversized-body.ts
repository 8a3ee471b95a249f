import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error';
import { sendEnvelope } from './send-envelope';

/** Bodies up to this size are read and discarded before the 413, so the client sees the answer. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A client still sending a body it announced as too large gets EPIPE, not the 413, when the server
 * answers and closes at once. Read (and drop) such bodies first, then answer in the envelope.
 */
export function answerOversizedBodiesAfterDraining(
  app: FastifyInstance,
  limitBytes: number,
  docBase: string,
): void {
  app.addHook('onRequest', (req, reply, done) => {
    const length = Number(req.headers['content-length']);
    if (!(length > limitBytes) || length > DRAIN_LIMIT_BYTES) return done();
    const error = new ApiError(
      413,
      'invalid_request_error',
      'request_too_large',
      `The request body is ${length} bytes; send at most ${limitBytes} bytes.`,
    );
    req.raw.on('end', () => void sendEnvelope(req, reply, error, docBase));
    req.raw.resume();
  });
}
