import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { GuardedAuth } from './guarded-auth';
import { Principal } from './principal';

const PUBLIC = 'graph-history:public';

/** Marks a route (or controller) as readable without an API key. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC, true);

type AuthedRequest = FastifyRequest & { principal?: Principal };

/**
 * Authenticates every route not marked @Public() behind the brute-force guard; the principal is
 * then @CurrentPrincipal().
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly auth: GuardedAuth,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [ctx.getHandler(), ctx.getClass()]))
      return true;
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    req.principal = await this.auth.authenticate(req.headers.authorization, req.ip);
    return true;
  }
}

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal => {
    const principal = ctx.switchToHttp().getRequest<AuthedRequest>().principal;
    if (!principal) throw new Error('CurrentPrincipal used on a route without ApiKeyGuard');
    return principal;
  },
);
