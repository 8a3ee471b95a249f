import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiAccessGuard } from '../http/api-access.guard';
import { Read, type ReadRequest } from '../http/read-request.decorator';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { readNoticeListQuery } from './notice-list.query';
import { NoticeListService } from './notice-list.service';

@Controller('api/v1/notices')
@UseGuards(ApiAccessGuard)
export class NoticesController {
  constructor(private readonly notices: NoticeListService) {}

  @Get()
  // stored JSON comes as JSON text: Fastify sends it as it is
  @Header('Content-Type', JSON_CONTENT_TYPE)
  list(@Read() r: ReadRequest) {
    return this.notices.list(r.principal, readNoticeListQuery(r.query));
  }
}
