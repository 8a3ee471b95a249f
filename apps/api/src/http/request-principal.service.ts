import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GuardedAuth, Principal } from '@graph-history/http';
import { isViewerApiCall } from '../viewer/session/same-origin';
import { readSessionToken } from '../viewer/session/session-cookie';
import { ViewerSessionService } from '../viewer/session/viewer-session.service';

/**
 * Who a request acts for: the key it sends (Bearer, or Basic with the key as user name), else a
 * viewer session. A wrong key counts against the client address (the brute-force guard).
 */
@Injectable()
export class RequestPrincipalService {
  constructor(
    private readonly auth: GuardedAuth,
    private readonly sessions: ViewerSessionService,
  ) {}

  /** An API call: the key; without one, the session of a call made by the viewer page. */
  async forApi(req: FastifyRequest): Promise<Principal> {
    if (!req.headers.authorization && isViewerApiCall(req)) {
      const principal = await this.session(req);
      if (principal) return principal;
    }
    return this.fromKey(req, req.headers.authorization);
  }

  /**
   * The principal of a key header that authenticated here within seconds, without a promise or
   * a look-up (what forApi would find first); undefined otherwise.
   */
  recentForApi(req: FastifyRequest): Principal | undefined {
    const authorization = req.headers.authorization;
    return authorization ? this.auth.recent(authorization) : undefined;
  }

  /** A viewer page: the key a script sends, else the browser's session; null when neither. */
  forPage(req: FastifyRequest): Promise<Principal | null> {
    return req.headers.authorization
      ? this.fromKey(req, req.headers.authorization)
      : this.session(req);
  }

  /** A key, with the brute-force guard on the client address around its look-up. */
  fromKey(req: FastifyRequest, authorization: string | undefined): Promise<Principal> {
    return this.auth.authenticate(authorization, req.ip);
  }

  private async session(req: FastifyRequest): Promise<Principal | null> {
    const token = readSessionToken(req);
    return token ? this.sessions.principal(token) : null;
  }
}
