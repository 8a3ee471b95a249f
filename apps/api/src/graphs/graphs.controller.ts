import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiAccessGuard } from '../http/api-access.guard';
import { Read, type ReadRequest } from '../http/read-request.decorator';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { readGraphListQuery } from './graph-list.query';
import { GraphListService } from './graph-list.service';

// GET /api/v1/graphs/{graph_id} is a direct read route: GraphReadRoute
@Controller('api/v1/graphs')
@UseGuards(ApiAccessGuard)
export class GraphsController {
  constructor(private readonly graphList: GraphListService) {}

  @Get()
  // the list comes as JSON text: Fastify sends it as it is
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(@Read() r: ReadRequest) {
    return this.graphList.list(r.principal, readGraphListQuery(r.query));
  }
}
