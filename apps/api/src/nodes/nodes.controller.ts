import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { CurrentPrincipal, Principal } from '@graph-history/http';
import { ApiAccessGuard } from '../http/api-access.guard';
import { QueryParams } from '../query/query-params';
import { RawQuery } from '../query/raw-query.decorator';
import { readNodeListQuery } from './node-list.query';
import { NodeListService } from './node-list.service';
import { readNodeReadQuery } from './node-read.query';
import { NodeReadService } from './node-read.service';

@Controller('api/v1/graphs/:graph_id/nodes')
@UseGuards(ApiAccessGuard)
export class NodesController {
  constructor(
    private readonly nodeList: NodeListService,
    private readonly nodeRead: NodeReadService,
  ) {}

  @Get()
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_id') graphId: string,
    @RawQuery() q: QueryParams,
  ) {
    return this.nodeList.list(principal, graphId, readNodeListQuery(q));
  }

  @Get(':node_id')
  retrieve(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_id') graphId: string,
    @Param('node_id') nodeId: string,
    @RawQuery() q: QueryParams,
  ) {
    return this.nodeRead.retrieve(principal, graphId, nodeId, readNodeReadQuery(q));
  }
}
