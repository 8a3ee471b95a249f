import { Logger } from '@nestjs/common';
import { ApiMetrics } from '../ops/api-metrics';

/**
 * Tracks whether rate limits fall back to the in-process insurance limiter (Redis unreachable):
 * says so once in the logs when it starts and when it ends, and in the metrics all along.
 */
export class RateLimitDegradation {
  private readonly logger = new Logger('RateLimit');
  private degraded = false;

  constructor(private readonly metrics: ApiMetrics) {}

  usedInsurance(): void {
    this.metrics.insuranceDecisions.inc();
    if (this.degraded) return;
    this.degraded = true;
    this.metrics.rateLimitDegraded.set(1);
    this.logger.warn(
      'Redis is unreachable: rate limits are enforced per process by the insurance limiter until it is back.',
    );
  }

  redisReady(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.metrics.rateLimitDegraded.set(0);
    this.logger.log('Redis is reachable again: rate limits are shared by all replicas.');
  }
}
