import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toEnvelope } from './error-envelope';

const logger = new Logger('Errors');

/**
 * Answers `err` in the contract's envelope and logs what is our fault: the catch of
 * ErrorEnvelopeFilter, and of routes registered on Fastify directly (same bytes, same log).
 */
export function answerWithEnvelope(
  err: unknown,
  req: FastifyRequest,
  reply: FastifyReply,
  docBase: string,
): void {
  const envelope = toEnvelope(err, {
    requestId: String(req.id),
    method: req.method,
    url: req.url,
    docBase,
  });
  if (envelope.status >= 500) logger.error({ err, requestId: req.id }, 'request failed');
  if (reply.sent) return;
  reply.status(envelope.status).headers(envelope.headers).send(envelope.body);
}

/** Renders every error as the contract's envelope; logs what is our fault. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  constructor(private readonly docBase: string) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    answerWithEnvelope(
      err,
      http.getRequest<FastifyRequest>(),
      http.getResponse<FastifyReply>(),
      this.docBase,
    );
  }
}
