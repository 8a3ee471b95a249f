import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, Principal } from '@graph-history/http';
import { ApiAccessGuard } from '../http/api-access.guard';
import { QueryParams } from '../query/query-params';
import { RawQuery } from '../query/raw-query.decorator';
import { readEventStreamQuery } from './event-stream.query';
import { EventStreamService } from './event-stream.service';

@Controller('api/v1/graphs/:graph_id/events/stream')
@UseGuards(ApiAccessGuard)
export class EventStreamController {
  constructor(private readonly streams: EventStreamService) {}

  @Get()
  open(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_id') graphId: string,
    @RawQuery() q: QueryParams,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const query = readEventStreamQuery(q, req.headers['last-event-id']);
    return this.streams.open(principal, graphId, query, req, reply);
  }
}
