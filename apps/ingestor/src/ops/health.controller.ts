import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '@graph-history/http';
import { Readiness, ReadinessService } from './readiness.service';

@Public()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** Liveness: the process serves HTTP. */
  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: 200 when Postgres and Redis answer, else 503 naming what is unreachable. */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<Readiness> {
    const result = await this.readiness.check();
    if (!result.ready) reply.status(503);
    return result;
  }
}
