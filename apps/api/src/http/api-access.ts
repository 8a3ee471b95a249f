import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Principal } from '@graph-history/http';
import { ApiMetrics } from '../ops/api-metrics';
import { FairShare } from '../rate-limit/fair-share';
import { RequestPrincipalService } from './request-principal.service';

export type ApiRequest = FastifyRequest & { principal?: Principal };

/**
 * Who may read: authenticates the API key or the viewer's session (kept as `req.principal`), with
 * the brute-force guard around it, then admits the request under the key's and the account's fair
 * share. A key that authenticated within seconds, with leased tokens at hand, is let through
 * without a promise (undefined: the hot path); anything else waits for its look-ups. ReadRoutes
 * runs it before every read.
 */
@Injectable()
export class ApiAccess {
  constructor(
    private readonly principals: RequestPrincipalService,
    private readonly fairShare: FairShare,
    private readonly metrics: ApiMetrics,
  ) {}

  admit(req: ApiRequest, reply: FastifyReply): Promise<void> | undefined {
    const known = this.principals.recentForApi(req);
    return known ? this.admitAs(req, reply, known) : this.authenticateThenAdmit(req, reply);
  }

  private async authenticateThenAdmit(req: ApiRequest, reply: FastifyReply): Promise<void> {
    let principal: Principal;
    try {
      principal = await this.principals.forApi(req);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'rate_limit')
        this.metrics.rateLimited.inc({ reason: 'authentication_failures' });
      throw err;
    }
    return this.admitAs(req, reply, principal);
  }

  private admitAs(
    req: ApiRequest,
    reply: FastifyReply,
    principal: Principal,
  ): Promise<void> | undefined {
    req.principal = principal;
    return this.fairShare.admit(req, reply, principal);
  }
}
