import { Controller, Get, Header, Param, UseGuards } from '@nestjs/common';
import { CurrentPrincipal, Principal } from '@graph-history/http';
import { readAsOf } from '../as-of/as-of';
import { ApiAccessGuard } from '../http/api-access.guard';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { QueryParams } from '../query/query-params';
import { RawQuery } from '../query/raw-query.decorator';
import { readGraphListQuery } from './graph-list.query';
import { GraphListService } from './graph-list.service';
import { GraphReadService } from './graph-read.service';

@Controller('api/v1/graphs')
@UseGuards(ApiAccessGuard)
export class GraphsController {
  constructor(
    private readonly graphList: GraphListService,
    private readonly graphRead: GraphReadService,
  ) {}

  @Get()
  // the list comes as JSON text: Fastify sends it as it is
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(@CurrentPrincipal() principal: Principal, @RawQuery() q: QueryParams) {
    return this.graphList.list(principal, readGraphListQuery(q));
  }

  @Get(':graph_id')
  retrieve(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_id') graphId: string,
    @RawQuery() q: QueryParams,
  ) {
    return this.graphRead.retrieve(principal, graphId, readAsOf(q.allowOnly(['as_of'])));
  }
}
