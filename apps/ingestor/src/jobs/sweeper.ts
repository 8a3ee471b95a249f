import { Inject, Injectable, Logger } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { isConnectionError, PendingGraph, PendingWorkRepository } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';
import { IngestorMetrics } from '../ops/ingestor-metrics';
import { ApplyProgress } from './apply-progress';
import { ApplyRequests } from './apply-requests';
import { LOWEST_PRIORITY } from './account-backlog';
import { WebhookKicks } from '../webhooks/webhook-kicks';
import { ApplyRequest, JobQueues } from './job-queues';

const SWEEP_INTERVAL_MS = 1_000;

/** Rescue jobs of the `stuck` graphs, each at the priority of its account's pending graphs. */
function rescuesOf(graphs: readonly PendingGraph[], stuck: readonly number[]): ApplyRequest[] {
  if (stuck.length === 0) return [];
  const pendingOf = new Map<number, number>();
  const accountOf = new Map<number, number>();
  for (const g of graphs) {
    accountOf.set(g.graphId, g.accountId);
    if (g.unapplied > 0) pendingOf.set(g.accountId, (pendingOf.get(g.accountId) ?? 0) + 1);
  }
  return stuck.map((graphId) => ({
    graphId,
    priority: Math.min(LOWEST_PRIORITY, pendingOf.get(accountOf.get(graphId)!) ?? 1),
  }));
}

/**
 * Postgres is the source of truth and jobs are re-derived from it: on boot and every second,
 * every graph with stored-but-unapplied events gets an apply job and every graph with a retention
 * cut not yet trimmed a trim job (both deduplicated by BullMQ). So an enqueue lost to a crash, a
 * Redis restart or flush, or a job that exhausted its attempts, is picked up again. A graph whose
 * apply made no progress since the previous sweep (any pending graph, on boot) while its regular
 * job is active, perhaps held by a dead process, also gets a rescue job, which that job cannot
 * hold back, at the priority of its account's pending graphs (see AccountBacklog). While Redis is
 * unreachable, the applies are run in this process instead
 * (ApplyRequests). A graph quarantined at an event the reducer refused is left alone (see
 * GraphApplier). Every sweep also kicks the `webhooks` job (notices left undispatched, retries
 * that came due).
 */
@Injectable()
export class Sweeper {
  private readonly logger = new Logger(Sweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly progress = new ApplyProgress();

  constructor(
    private readonly pending: PendingWorkRepository,
    private readonly queues: JobQueues,
    private readonly applyRequests: ApplyRequests,
    private readonly metrics: IngestorMetrics,
    private readonly webhooks: WebhookKicks,
    @Inject(CONFIG) private readonly config: Pick<Config, 'SWEEP_LIMIT'>,
  ) {}

  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), SWEEP_INTERVAL_MS);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  async sweep(): Promise<void> {
    const listed = await this.pending.list(this.config.SWEEP_LIMIT);
    this.metrics.applyLag.set(listed.reduce((sum, g) => sum + g.unapplied, 0));
    this.metrics.graphsStalled.set(listed.filter((g) => g.stalled).length);
    // A quarantined graph gets no apply (nor rescue) until an operator resolves it; trims go on.
    const graphs = listed.map((g) => (g.stalled ? { ...g, unapplied: 0 } : g));
    const stalled = this.progress.stuck(graphs);
    // a graph waiting its turn in a busy queue is not stuck (rescues would only add work)
    const stuck =
      stalled.length === 0 ? stalled : await this.queues.heldApplies(stalled).catch(() => stalled);
    this.metrics.applyRescues.inc(stuck.length);
    const rescues = rescuesOf(graphs, stuck);
    // Trims and rescues wait for Redis (ApplyRequests reports an outage); applies do not.
    await Promise.allSettled([
      ...graphs.flatMap((g) => [
        ...(g.unapplied > 0 ? [this.applyRequests.request(g.graphId, g.accountId)] : []),
        ...(g.trimDue ? [this.queues.enqueueTrim(g.graphId)] : []),
      ]),
      ...(rescues.length > 0 ? [this.queues.rescueApply(rescues)] : []),
      this.webhooks.kick(),
    ]);
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.sweep()
      .catch((err: unknown) => {
        // a lost database connection is logged once, by the pool
        if (!isConnectionError(err))
          this.logger.warn({ err }, 'sweep failed; retrying in a second');
      })
      .finally(() => {
        this.running = undefined;
      });
  }
}
