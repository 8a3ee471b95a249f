import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiAccessGuard } from '../http/api-access.guard';
import { Read, type ReadRequest } from '../http/read-request.decorator';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { readNodeListQuery } from './node-list.query';
import { NodeListService } from './node-list.service';

// GET …/nodes/{node_id} is a direct read route: NodeReadRoute
@Controller('api/v1/graphs/:graph_id/nodes')
@UseGuards(ApiAccessGuard)
export class NodesController {
  constructor(private readonly nodeList: NodeListService) {}

  @Get()
  // lists and nodes of stored JSON come as JSON text: Fastify sends it as it is
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(@Read() r: ReadRequest) {
    return this.nodeList.list(
      r.principal,
      r.params.graph_id!,
      readNodeListQuery(r.query),
      r.maxBytes,
    );
  }
}
