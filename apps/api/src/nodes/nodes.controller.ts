import { Controller, Get, Header, Param, UseGuards } from '@nestjs/common';
import { CurrentPrincipal, Principal } from '@graph-history/http';
import { ApiAccessGuard } from '../http/api-access.guard';
import { QueryParams } from '../query/query-params';
import { RawQuery } from '../query/raw-query.decorator';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
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
  // lists and nodes of stored JSON come as JSON text: Fastify sends it as it is
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_id') graphId: string,
    @RawQuery() q: QueryParams,
  ) {
    return this.nodeList.list(principal, graphId, readNodeListQuery(q));
  }

  @Get(':node_id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  retrieve(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_id') graphId: string,
    @Param('node_id') nodeId: string,
    @RawQuery() q: QueryParams,
  ) {
    return this.nodeRead.retrieve(principal, graphId, nodeId, readNodeReadQuery(q));
  }
}
