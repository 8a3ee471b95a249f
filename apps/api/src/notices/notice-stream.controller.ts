import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, Principal } from '@graph-history/http';
import { ApiAccessGuard } from '../http/api-access.guard';
import { QueryParams } from '../query/query-params';
import { RawQuery } from '../query/raw-query.decorator';
import { readNoticeStreamQuery } from './notice-stream.query';
import { NoticeStreamService } from './notice-stream.service';

@Controller('api/v1/notices/stream')
@UseGuards(ApiAccessGuard)
export class NoticeStreamController {
  constructor(private readonly streams: NoticeStreamService) {}

  @Get()
  open(
    @CurrentPrincipal() principal: Principal,
    @RawQuery() q: QueryParams,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const query = readNoticeStreamQuery(q, req.headers['last-event-id']);
    return this.streams.open(principal, query, req, reply);
  }
}
