import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Principal, rateLimited } from '@graph-history/http';
import { ApiMetrics } from '../ops/api-metrics';
import { KeyRateLimiter } from '../rate-limit/key-rate-limiter';
import { RequestPrincipalService } from './request-principal.service';

/**
 * Authenticates the API key or the viewer's session (the principal is then @CurrentPrincipal()),
 * with the brute-force guard around it, then spends one token of the key's rate limit and reports it in RateLimit-*
 * headers.
 */
@Injectable()
export class ApiAccessGuard implements CanActivate {
  constructor(
    private readonly principals: RequestPrincipalService,
    private readonly limiter: KeyRateLimiter,
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
    const d = await this.limiter.consume(req.principal.keyId);
    const seconds = Math.max(d.allowed ? 0 : 1, Math.ceil(d.msBeforeNext / 1000));
    reply
      .header('RateLimit-Limit', d.limit)
      .header('RateLimit-Remaining', d.remaining)
      .header('RateLimit-Reset', seconds);
    if (!d.allowed) {
      this.metrics.rateLimited.inc({ reason: 'api_key' });
      throw rateLimited(seconds);
    }
    return true;
  }
}
