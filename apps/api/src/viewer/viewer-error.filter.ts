import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Config } from '@graph-history/config';
import { CONFIG, logFailedRequest, toEnvelope } from '@graph-history/http';
import { publicBaseUrl } from '../public-urls';
import { ViewerAssets } from './viewer-assets';
import { viewerErrorPage } from './viewer-error-page';
import { VIEWER_CHALLENGE, VIEWER_HEADERS } from './viewer-shell';

/**
 * The viewer's errors: the API's statuses and error fields, as an HTML page; a 401 (a script's
 * wrong key) challenges for Basic credentials.
 */
@Catch()
@Injectable()
export class ViewerErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');
  private readonly docBase: string;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly assets: ViewerAssets,
  ) {
    this.docBase = publicBaseUrl(config);
  }

  catch(err: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const requestId = String(req.id);
    const e = toEnvelope(err, {
      requestId,
      method: req.method,
      url: req.url,
      docBase: this.docBase,
    });
    logFailedRequest(this.logger, e.status, err, requestId);
    if (reply.sent) return;
    reply
      .status(e.status)
      .headers({
        ...e.headers,
        ...VIEWER_HEADERS,
        ...(e.status === 401 ? { 'WWW-Authenticate': VIEWER_CHALLENGE } : {}),
      })
      .send(viewerErrorPage(this.assets.base, e.status, e.body.error, requestId));
  }
}
