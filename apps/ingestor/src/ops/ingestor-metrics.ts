import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The ingestor's Prometheus metrics, on a registry of its own (one per app instance). */
export class IngestorMetrics {
  readonly registry = new Registry();

  readonly eventsStored = new Counter({
    name: 'graph_history_events_stored_total',
    help: 'Events durably stored by the ingest endpoint (duplicates excluded).',
    registers: [this.registry],
  });

  readonly duplicates = new Counter({
    name: 'graph_history_events_duplicate_total',
    help: 'Events received again with an already stored key (no-ops).',
    registers: [this.registry],
  });

  readonly batchesRejected = new Counter({
    name: 'graph_history_batches_rejected_total',
    help: 'Ingest batches refused as a whole because an event was invalid.',
    registers: [this.registry],
  });

  readonly quotaRefusals = new Counter({
    name: 'graph_history_quota_refusals_total',
    help: "Ingest requests refused because they would pass an account's quota (quota: graphs or bytes).",
    labelNames: ['quota'],
    registers: [this.registry],
  });

  readonly eventsApplied = new Counter({
    name: 'graph_history_events_applied_total',
    help: 'Stored events applied to their graph (readable through the API).',
    registers: [this.registry],
  });

  readonly applyLag = new Gauge({
    name: 'graph_history_apply_lag_events',
    help: 'Stored events not yet applied, over all graphs (sampled every second).',
    registers: [this.registry],
  });

  readonly applyDelay = new Histogram({
    name: 'graph_history_apply_delay_seconds',
    help: 'Time from an event being stored to it being applied.',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly applyRescues = new Counter({
    name: 'graph_history_apply_rescues_total',
    help: 'Rescue apply jobs queued for graphs whose apply made no progress between two sweeps (or had events pending at boot), e.g. because a dead process held their job.',
    registers: [this.registry],
  });

  readonly applyFallbacks = new Counter({
    name: 'graph_history_apply_fallbacks_total',
    help: 'Apply requests run in this process, driven by Postgres, because Redis was unreachable.',
    registers: [this.registry],
  });

  readonly applyStalls = new Counter({
    name: 'graph_history_apply_stalls_total',
    help: 'Graphs quarantined because the reducer refused their next stored event (each counted once).',
    registers: [this.registry],
  });

  readonly graphsStalled = new Gauge({
    name: 'graph_history_graphs_stalled',
    help: 'Graphs quarantined at a refused event, awaiting `graph-history stalled skip|retry` (sampled every second).',
    registers: [this.registry],
  });

  readonly jobFailures = new Counter({
    name: 'graph_history_job_failures_total',
    help: 'Failed job attempts, by queue (each failure is retried with backoff; exhausted jobs are kept).',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'graph_history_ingest_rate_limited_total',
    help: 'Ingest batches refused with 429 by the per-account limit, by the bucket that refused (events, bytes).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly rateLimitDegraded = new Gauge({
    name: 'graph_history_ingest_rate_limit_degraded',
    help: '1 while Redis is unreachable and ingest limits are enforced per process (insurance limiter).',
    registers: [this.registry],
  });

  readonly insuranceDecisions = new Counter({
    name: 'graph_history_ingest_rate_limit_insurance_decisions_total',
    help: 'Ingest limit decisions taken by the in-process insurance limiter because Redis failed.',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
