import { Controller, Header } from '@nestjs/common';
import { Read } from '../http/read.decorator';
import type { ReadRequest } from '../http/read-request';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { readEventListQuery } from './event-list.query';
import { EventListService } from './event-list.service';

@Controller('api/v1/graphs/:graph_id/events')
export class EventsController {
  constructor(private readonly events: EventListService) {}

  @Read()
  // pages of stored JSON come as JSON text: Fastify sends it as it is
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(r: ReadRequest) {
    return this.events.list(
      r.principal,
      r.params.graph_id!,
      readEventListQuery(r.query),
      r.maxBytes,
    );
  }
}
