import { Logger } from '@nestjs/common';

/** The metrics a degradation is reported in (each app names its own). */
export interface DegradationMetrics {
  rateLimitDegraded: { set(value: number): void };
  insuranceDecisions: { inc(): void };
}

/** Decisions taken in Redis with no insurance decision for this long end a degradation. */
export const RECOVERED_AFTER_MS = 1_000;

/**
 * Tracks whether rate limits fall back to the in-process insurance limiter (Redis unreachable):
 * says so once in the logs when it starts and when it ends, and in the metrics all along.
 */
export class RateLimitDegradation {
  private readonly logger = new Logger('RateLimit');
  private degraded = false;
  private lastInsuranceAt = 0;

  constructor(private readonly metrics: DegradationMetrics) {}

  usedInsurance(now = Date.now()): void {
    this.lastInsuranceAt = now;
    this.metrics.insuranceDecisions.inc();
    if (this.degraded) return;
    this.degraded = true;
    this.metrics.rateLimitDegraded.set(1);
    this.logger.warn(
      'Redis is unreachable: rate limits are enforced per process by the insurance limiter until it is back.',
    );
  }

  /**
   * A decision was taken. With none on the insurance limiter for RECOVERED_AFTER_MS, Redis serves
   * again: a Redis Cluster whose master failed over never reconnects as a whole, so its `ready`
   * does not come again; one master down keeps this degraded while keys on it still fall back.
   */
  decided(now = Date.now()): void {
    if (this.degraded && now - this.lastInsuranceAt >= RECOVERED_AFTER_MS) this.redisReady();
  }

  redisReady(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.metrics.rateLimitDegraded.set(0);
    this.logger.log('Redis is reachable again: rate limits are shared by all replicas.');
  }
}
