import { Controller, Get, Header, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DatabaseHealthRepository } from '@graph-history/db';
import { MetricsTokenGuard } from '@graph-history/http';
import { ApiMetrics } from './api-metrics';

/** Liveness, readiness (Postgres; Redis is optional for the API) and Prometheus metrics. */
@Controller()
export class HealthController {
  constructor(
    private readonly database: DatabaseHealthRepository,
    private readonly metrics: ApiMetrics,
  ) {}

  @Get('healthz')
  live() {
    return { ok: true };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    try {
      await this.database.ping();
      return { ok: true };
    } catch {
      reply.code(503);
      return { ok: false, postgres: 'unreachable' };
    }
  }

  @Get('metrics')
  @UseGuards(MetricsTokenGuard)
  @Header('Content-Type', 'text/plain; version=0.0.4')
  metricsText() {
    return this.metrics.registry.metrics();
  }
}
