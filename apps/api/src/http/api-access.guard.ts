import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Principal } from '@graph-history/http';
import { ApiMetrics } from '../ops/api-metrics';
import { FairShare } from '../rate-limit/fair-share';
import { RequestPrincipalService } from './request-principal.service';

type ApiRequest = FastifyRequest & { principal?: Principal };

/**
 * Authenticates the API key or the viewer's session (the principal is then @CurrentPrincipal()),
 * with the brute-force guard around it, then admits the request under the key's and the account's
 * fair share. A key that authenticated within seconds, with leased tokens at hand, is let through
 * without a promise (the hot path); anything else waits for its look-ups.
 */
@Injectable()
export class ApiAccessGuard implements CanActivate {
  constructor(
    private readonly principals: RequestPrincipalService,
    private readonly fairShare: FairShare,
    private readonly metrics: ApiMetrics,
  ) {}

  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    const http = ctx.switchToHttp();
    const req = http.getRequest<ApiRequest>();
    const reply = http.getResponse<FastifyReply>();
    const known = this.principals.recentForApi(req);
    return known ? this.admit(req, reply, known) : this.authenticateThenAdmit(req, reply);
  }

  private async authenticateThenAdmit(req: ApiRequest, reply: FastifyReply): Promise<boolean> {
    let principal: Principal;
    try {
      principal = await this.principals.forApi(req);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'rate_limit')
        this.metrics.rateLimited.inc({ reason: 'authentication_failures' });
      throw err;
    }
    return this.admit(req, reply, principal);
  }

  private admit(
    req: ApiRequest,
    reply: FastifyReply,
    principal: Principal,
  ): boolean | Promise<boolean> {
    req.principal = principal;
    const admitted = this.fairShare.admit(req, reply, principal);
    return admitted ? admitted.then(() => true) : true;
  }
}
