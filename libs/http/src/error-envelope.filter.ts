import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toEnvelope } from './error-envelope';

/** Renders every error as the contract's envelope; logs what is our fault. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly docBase: string) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const envelope = toEnvelope(err, {
      requestId: String(req.id),
      method: req.method,
      url: req.url,
      docBase: this.docBase,
    });
    if (envelope.status >= 500) this.logger.error({ err, requestId: req.id }, 'request failed');
    if (reply.sent) return;
    reply.status(envelope.status).headers(envelope.headers).send(envelope.body);
  }
}
