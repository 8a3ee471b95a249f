import { Body, Controller, Get, Inject, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Config } from '@graph-history/config';
import { ApiError, CONFIG } from '@graph-history/http';
import { RequestPrincipalService } from '../http/request-principal.service';
import { QueryParams } from '../query/query-params';
import { RawQuery } from '../query/raw-query.decorator';
import { publicBaseUrl } from '../public-urls';
import { safeNext } from './safe-next';
import { isSameOriginPost } from './session/same-origin';
import { clearedSessionCookie, readSessionToken, sessionCookie } from './session/session-cookie';
import { ViewerSessionService } from './session/viewer-session.service';
import { signInPage } from './sign-in-page';
import { ViewerAssets } from './viewer-assets';
import { ViewerErrorFilter } from './viewer-error.filter';
import { VIEWER_HEADERS } from './viewer-shell';

interface SignInForm {
  key?: unknown;
  next?: unknown;
}

/**
 * Browser sign-in: a key of the account, posted once from the form, opens a server-side session
 * held in an HttpOnly, SameSite=Lax cookie; sign-out ends it. Both only accept posts from this
 * origin, so another site cannot sign a browser in or out.
 */
@Controller()
@UseFilters(ViewerErrorFilter)
export class SignInController {
  private readonly publicUrl: string;

  constructor(
    private readonly principals: RequestPrincipalService,
    private readonly sessions: ViewerSessionService,
    private readonly assets: ViewerAssets,
    @Inject(CONFIG) config: Config,
  ) {
    this.publicUrl = publicBaseUrl(config);
  }

  @Get('sign-in')
  form(@RawQuery() q: QueryParams, @Res() reply: FastifyReply): void {
    const next = safeNext(q.allowOnly(['next']).scalar('next'));
    reply
      .status(200)
      .headers(VIEWER_HEADERS)
      .send(signInPage(this.assets.base, { next, error: null }));
  }

  @Post('sign-in')
  async signIn(
    @Req() req: FastifyRequest,
    @Body() form: SignInForm | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const next = safeNext(form?.next);
    if (!isSameOriginPost(req)) return this.refuse(reply, next, 403, 'Sign in from this site.');
    const key = typeof form?.key === 'string' ? form.key.trim() : '';
    if (!key) return this.refuse(reply, next, 400, 'Enter an API key.');
    try {
      const principal = await this.principals.fromKey(req, `Bearer ${key}`);
      const token = await this.sessions.open(principal);
      reply
        .status(303)
        .header('Set-Cookie', sessionCookie(req, this.publicUrl, token, this.sessions.ttlMs))
        .header('Cache-Control', 'no-store')
        .header('Location', next)
        .send();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) throw err;
      this.refuse(reply, next, err.status, err.message);
    }
  }

  @Post('sign-out')
  async signOut(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!isSameOriginPost(req))
      return this.refuse(reply, '/graphs', 403, 'Sign out from this site.');
    const token = readSessionToken(req);
    if (token) await this.sessions.close(token);
    reply
      .status(303)
      .header('Set-Cookie', clearedSessionCookie(req, this.publicUrl))
      .header('Location', '/sign-in')
      .send();
  }

  private refuse(reply: FastifyReply, next: string, status: number, error: string): void {
    reply
      .status(status)
      .headers(VIEWER_HEADERS)
      .send(signInPage(this.assets.base, { next, error }));
  }
}
