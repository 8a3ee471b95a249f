import { Controller } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Read } from '../http/read.decorator';
import type { ReadRequest } from '../http/read-request';
import { readNoticeStreamQuery } from './notice-stream.query';
import { NoticeStreamService } from './notice-stream.service';

@Controller('api/v1/notices/stream')
export class NoticeStreamController {
  constructor(private readonly streams: NoticeStreamService) {}

  @Read()
  open(r: ReadRequest, reply: FastifyReply): Promise<void> {
    const query = readNoticeStreamQuery(r.query, reply.request.headers['last-event-id']);
    return this.streams.open(r.principal, query, reply);
  }
}
