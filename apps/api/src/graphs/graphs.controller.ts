import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { readAsOf } from '../as-of/as-of';
import { ApiAccessGuard } from '../http/api-access.guard';
import { Read, type ReadRequest } from '../http/read-request.decorator';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
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
  list(@Read() r: ReadRequest) {
    return this.graphList.list(r.principal, readGraphListQuery(r.query));
  }

  @Get(':graph_id')
  retrieve(@Read() r: ReadRequest) {
    return this.graphRead.retrieve(
      r.principal,
      r.params.graph_id!,
      readAsOf(r.query.allowOnly(['as_of'])),
    );
  }
}
