import { Controller, Header } from '@nestjs/common';
import { Read } from '../http/read.decorator';
import type { ReadRequest } from '../http/read-request';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { readNoticeListQuery } from './notice-list.query';
import { NoticeListService } from './notice-list.service';

@Controller('api/v1/notices')
export class NoticesController {
  constructor(private readonly notices: NoticeListService) {}

  @Read()
  // stored JSON comes as JSON text: Fastify sends it as it is
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(r: ReadRequest) {
    return this.notices.list(r.principal, readNoticeListQuery(r.query));
  }
}
