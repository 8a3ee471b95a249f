import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/** The API's Prometheus metrics, on a registry of its own (several apps may share a process). */
export class ApiMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'graph_history_api_requests_total',
    help: 'Requests answered, by status code.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly rateLimitDegraded = new Gauge({
    name: 'graph_history_api_rate_limit_degraded',
    help: '1 while Redis is unreachable and rate limits are enforced per process (insurance limiter).',
    registers: [this.registry],
  });

  readonly insuranceDecisions = new Counter({
    name: 'graph_history_api_rate_limit_insurance_decisions_total',
    help: 'Rate-limit decisions taken by the in-process insurance limiter because Redis failed.',
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'graph_history_api_rate_limited_total',
    help: 'Requests refused with 429, by reason.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'graph_history_api_' });
  }
}
