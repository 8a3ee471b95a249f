import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { MetricsTokenGuard, Public } from '@graph-history/http';
import { IngestorMetrics } from './ingestor-metrics';

@Public()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: IngestorMetrics) {}

  /** Prometheus text exposition, for the bearer of METRICS_TOKEN. */
  @Get('metrics')
  @UseGuards(MetricsTokenGuard)
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
