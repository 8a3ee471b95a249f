import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Principal } from '@graph-history/http';
import { ApiMetrics } from '../ops/api-metrics';
import { FairShare } from '../rate-limit/fair-share';
import { RequestPrincipalService } from './request-principal.service';

/**
 * Authenticates the API key or the viewer's session (the principal is then @CurrentPrincipal()),
 * with the brute-force guard around it, then admits the request under the key's and the account's
 * fair share.
 */
@Injectable()
export class ApiAccessGuard implements CanActivate {
  constructor(
    private readonly principals: RequestPrincipalService,
    private readonly fairShare: FairShare,
    private readonly metrics: ApiMetrics,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<FastifyRequest & { principal?: Principal }>();
    const reply = ctx.switchToHttp().getResponse<FastifyReply>();
    try {
      req.principal = await this.principals.forApi(req);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'rate_limit')
        this.metrics.rateLimited.inc({ reason: 'authentication_failures' });
      throw err;
    }
    await this.fairShare.admit(req, reply, req.principal);
    return true;
  }
}
