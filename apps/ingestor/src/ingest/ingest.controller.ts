import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CurrentPrincipal, Principal } from '@graph-history/http';
import { EVENTS_PATH } from './events-route';
import { IngestResult, IngestService } from './ingest.service';

@Controller(EVENTS_PATH)
export class IngestController {
  constructor(private readonly ingest: IngestService) {}

  @Post()
  @HttpCode(202)
  accept(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_key') graphKey: string,
    @Body() body: unknown,
  ): Promise<IngestResult> {
    return this.ingest.ingest(principal, graphKey, body);
  }
}
