import { Controller, Header } from '@nestjs/common';
import { Read } from '../http/read.decorator';
import type { ReadRequest } from '../http/read-request';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { readNodeListQuery } from './node-list.query';
import { NodeListService } from './node-list.service';
import { readNodeReadQuery } from './node-read.query';
import { NodeReadService } from './node-read.service';

// lists and nodes of stored JSON come as JSON text: Fastify sends it as it is
@Controller('api/v1/graphs/:graph_id/nodes')
export class NodesController {
  constructor(
    private readonly nodeList: NodeListService,
    private readonly nodeRead: NodeReadService,
  ) {}

  @Read()
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(r: ReadRequest) {
    return this.nodeList.list(
      r.principal,
      r.params.graph_id!,
      readNodeListQuery(r.query),
      r.maxBytes,
    );
  }

  @Read(':node_id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  retrieve(r: ReadRequest) {
    return this.nodeRead.retrieve(
      r.principal,
      r.params.graph_id!,
      r.params.node_id!,
      readNodeReadQuery(r.query),
      r.maxBytes,
    );
  }
}
