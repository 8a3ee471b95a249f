import { Controller } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Read } from '../http/read.decorator';
import type { ReadRequest } from '../http/read-request';
import { readEventStreamQuery } from './event-stream.query';
import { EventStreamService } from './event-stream.service';

@Controller('api/v1/graphs/:graph_id/events/stream')
export class EventStreamController {
  constructor(private readonly streams: EventStreamService) {}

  @Read()
  open(r: ReadRequest, reply: FastifyReply): Promise<void> {
    const query = readEventStreamQuery(r.query, reply.request.headers['last-event-id']);
    return this.streams.open(r.principal, r.params.graph_id!, query, reply);
  }
}
