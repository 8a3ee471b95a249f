import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/** The API's Prometheus metrics, on a registry of its own (several apps may share a process). */
export class ApiMetrics {
  readonly registry = new Registry();

  /** Answers counted since the last scrape, by status: a map update per request, not a label hash. */
  private readonly unscraped = new Map<number, number>();

  readonly requests = new Counter({
    name: 'graph_history_api_requests_total',
    help: 'Requests answered, by status code.',
    labelNames: ['status'] as const,
    registers: [this.registry],
    collect: () => this.flushAnswered(),
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

  readonly openStreams = new Gauge({
    name: 'graph_history_api_streams_open',
    help: 'Open Server-Sent Events streams of this process, by kind (events, notices).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  /** Counts an answered request in graph_history_api_requests_total (added when scraped). */
  answered(status: number): void {
    this.unscraped.set(status, (this.unscraped.get(status) ?? 0) + 1);
  }

  private flushAnswered(): void {
    for (const [status, n] of this.unscraped) this.requests.inc({ status: String(status) }, n);
    this.unscraped.clear();
  }

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'graph_history_api_' });
  }
}
