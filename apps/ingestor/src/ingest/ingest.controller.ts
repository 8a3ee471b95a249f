import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CurrentPrincipal, Principal } from '@graph-history/http';
import { EVENTS_PATH } from './events-route';
import { IngestResult, IngestService } from './ingest.service';

/** The request body's size: its Content-Length, or for a chunked body, its JSON re-encoded. */
export function bodyBytes(req: FastifyRequest, body: unknown): number {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) ? declared : Buffer.byteLength(JSON.stringify(body) ?? '');
}

@Controller(EVENTS_PATH)
export class IngestController {
  constructor(private readonly ingest: IngestService) {}

  @Post()
  @HttpCode(202)
  accept(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_key') graphKey: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
  ): Promise<IngestResult> {
    return this.ingest.ingest(principal, graphKey, body, {
      bytes: bodyBytes(req, body),
      authorization: req.headers.authorization,
    });
  }
}
