import { Controller, Get, Header, Param, UseGuards } from '@nestjs/common';
import { CurrentPrincipal, Principal } from '@graph-history/http';
import { ApiAccessGuard } from '../http/api-access.guard';
import { QueryParams } from '../query/query-params';
import { RawQuery } from '../query/raw-query.decorator';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { readEventListQuery } from './event-list.query';
import { EventListService } from './event-list.service';

@Controller('api/v1/graphs/:graph_id/events')
@UseGuards(ApiAccessGuard)
export class EventsController {
  constructor(private readonly events: EventListService) {}

  @Get()
  // pages of stored JSON come as JSON text: Fastify sends it as it is
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_id') graphId: string,
    @RawQuery() q: QueryParams,
  ) {
    return this.events.list(principal, graphId, readEventListQuery(q));
  }
}
