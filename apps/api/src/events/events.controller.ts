import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiAccessGuard } from '../http/api-access.guard';
import { Read, type ReadRequest } from '../http/read-request.decorator';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { readEventListQuery } from './event-list.query';
import { EventListService } from './event-list.service';

@Controller('api/v1/graphs/:graph_id/events')
@UseGuards(ApiAccessGuard)
export class EventsController {
  constructor(private readonly events: EventListService) {}

  @Get()
  // pages of stored JSON come as JSON text: Fastify sends it as it is
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(@Read() r: ReadRequest) {
    return this.events.list(
      r.principal,
      r.params.graph_id!,
      readEventListQuery(r.query),
      r.maxBytes,
    );
  }
}
