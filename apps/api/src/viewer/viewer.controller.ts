import { Controller, Get, Param, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, Principal } from '@graph-history/http';
import { readAsOf } from '../as-of/as-of';
import { ApiAccessGuard } from '../http/api-access.guard';
import { QueryParams } from '../query/query-params';
import { RawQuery } from '../query/raw-query.decorator';
import { ViewerErrorFilter } from './viewer-error.filter';
import { VIEWER_HEADERS } from './viewer-shell';
import { ViewerService } from './viewer.service';

/** The graph `url`: a server-rendered page of the share, for keys of the owning account. */
@Controller('graphs')
@UseGuards(ApiAccessGuard)
@UseFilters(ViewerErrorFilter)
export class ViewerController {
  constructor(private readonly viewer: ViewerService) {}

  @Get(':graph_id')
  page(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_id') graphId: string,
    @RawQuery() q: QueryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    reply.headers(VIEWER_HEADERS);
    return this.viewer.page(principal, graphId, readAsOf(q.allowOnly(['as_of'])));
  }
}
