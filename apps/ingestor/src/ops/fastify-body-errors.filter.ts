import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { ErrorEnvelopeFilter } from '@graph-history/http';

const FASTIFY_CODES: Record<number, string> = {
  413: 'FST_ERR_CTP_BODY_TOO_LARGE',
  415: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
};

/**
 * Nest turns Fastify's body errors (too large, not JSON, wrong media type) into plain
 * HttpExceptions before filters run, so the envelope filter no longer sees their Fastify codes and
 * answers `parameter_invalid` without a param. This filter hands them to the envelope filter in
 * their Fastify shape again (413 request_too_large, 415, 400 param `body`). The ingestor throws no
 * HttpException of its own. TODO(lead): fold into libs/http's toEnvelope, which the API needs too.
 */
@Catch()
export class FastifyBodyErrorsFilter implements ExceptionFilter {
  constructor(private readonly envelope: ErrorEnvelopeFilter) {}

  catch(err: unknown, host: ArgumentsHost): void {
    this.envelope.catch(this.unwrap(err), host);
  }

  private unwrap(err: unknown): unknown {
    if (!(err instanceof HttpException)) return err;
    const statusCode = err.getStatus();
    if (statusCode !== 400 && !(statusCode in FASTIFY_CODES)) return err;
    return Object.assign(new Error(err.message), { statusCode, code: FASTIFY_CODES[statusCode] });
  }
}
