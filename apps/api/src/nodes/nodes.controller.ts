import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiAccessGuard } from '../http/api-access.guard';
import { Read, type ReadRequest } from '../http/read-request.decorator';
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
  list(@Read() r: ReadRequest) {
    return this.nodeList.list(r.principal, r.params.graph_id!, readNodeListQuery(r.query));
  }

  @Get(':node_id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  retrieve(@Read() r: ReadRequest) {
    return this.nodeRead.retrieve(
      r.principal,
      r.params.graph_id!,
      r.params.node_id!,
      readNodeReadQuery(r.query),
    );
  }
}
