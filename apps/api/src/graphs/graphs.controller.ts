import { Controller, Header } from '@nestjs/common';
import { Read } from '../http/read.decorator';
import type { ReadRequest } from '../http/read-request';
import { readAsOf } from '../as-of/as-of';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { readGraphListQuery } from './graph-list.query';
import { GraphListService } from './graph-list.service';
import { GraphReadService } from './graph-read.service';

// graphs come as JSON text: Fastify sends it as it is
@Controller('api/v1/graphs')
export class GraphsController {
  constructor(
    private readonly graphList: GraphListService,
    private readonly graphRead: GraphReadService,
  ) {}

  @Read()
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(r: ReadRequest) {
    return this.graphList.list(r.principal, readGraphListQuery(r.query));
  }

  @Read(':graph_id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  retrieve(r: ReadRequest) {
    return this.graphRead.retrieve(
      r.principal,
      r.params.graph_id!,
      readAsOf(r.query.allowOnly(['as_of'])),
    );
  }
}
