import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toEnvelope } from './error-envelope';

const logger = new Logger('Errors');

/**
 * Logs an answer that is our fault. A 503 (the database unreachable) is not logged per request:
 * the lost connection is logged once by the pool (createDb), and /readyz reports the outage.
 */
export function logFailedRequest(
  log: Logger,
  status: number,
  err: unknown,
  requestId: string,
): void {
  if (status === 503)
    log.debug({ requestId, reason: (err as Error)?.message }, 'database unreachable: 503');
  else if (status >= 500) log.error({ err, requestId }, 'request failed');
}

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
  logFailedRequest(logger, envelope.status, err, String(req.id));
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
