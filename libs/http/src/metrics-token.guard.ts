import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '@graph-history/config';
import { ApiError, resourceMissing } from './api-error';
import { CONFIG } from './core.module';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/**
 * `/metrics` answers only to `Authorization: Bearer <METRICS_TOKEN>`; without METRICS_TOKEN it is
 * off (404), so a default install shows nothing of its traffic to the network.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  constructor(@Inject(CONFIG) private readonly config: Config) {}

  canActivate(ctx: ExecutionContext): boolean {
    const token = this.config.METRICS_TOKEN;
    if (!token) {
      throw resourceMissing(
        null,
        'Metrics are off. Set METRICS_TOKEN on the server and send it as `Authorization: Bearer <token>`.',
      );
    }
    const header = ctx.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const sent = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '';
    if (!timingSafeEqual(digest(sent), digest(token))) {
      throw new ApiError(
        401,
        'authentication_error',
        'metrics_token_invalid',
        "/metrics needs `Authorization: Bearer <token>` with the server's METRICS_TOKEN.",
        null,
        {},
        { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      );
    }
    return true;
  }
}
