import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiAccess, type ApiRequest } from './api-access';

/** ApiAccess as a Nest guard (the principal is then on the request, see @Read()). */
@Injectable()
export class ApiAccessGuard implements CanActivate {
  constructor(private readonly access: ApiAccess) {}

  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    const http = ctx.switchToHttp();
    const admitted = this.access.admit(
      http.getRequest<ApiRequest>(),
      http.getResponse<FastifyReply>(),
    );
    return admitted ? admitted.then(() => true) : true;
  }
}
