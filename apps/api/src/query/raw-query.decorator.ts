import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { QueryParams } from './query-params';

/** The request's query string as QueryParams (repeated and bracketed names intact). */
export const RawQuery = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): QueryParams =>
    new QueryParams(ctx.switchToHttp().getRequest<FastifyRequest>().url),
);
