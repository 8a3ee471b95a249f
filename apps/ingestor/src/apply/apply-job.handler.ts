import { Injectable, Logger } from '@nestjs/common';
import { JobQueues } from '../jobs/job-queues';
import { IngestorMetrics } from '../ops/ingestor-metrics';
import { AppliedEventsPublisher } from './applied-events-publisher';
import { WebhookKicks } from '../webhooks/webhook-kicks';
import { GraphApplier } from './graph-applier';

/**
 * Body of an `apply` job (and of the in-process applies while Redis is away): apply the graph's
 * pending events, publishing each committed batch to the event streams and kicking the webhooks
 * job, then schedule trimming if due.
 */
@Injectable()
export class ApplyJobHandler {
  private readonly logger = new Logger(ApplyJobHandler.name);

  constructor(
    private readonly applier: GraphApplier,
    private readonly queues: JobQueues,
    private readonly metrics: IngestorMetrics,
    private readonly published: AppliedEventsPublisher,
    private readonly webhooks: WebhookKicks,
  ) {}

  /** Throws (so BullMQ retries) when a batch fails; batches committed before stay applied. */
  async handle(graphId: number): Promise<number> {
    const outcome = await this.applier.applyPending(graphId, (batch) => {
      this.metrics.eventsApplied.inc(batch.applied);
      for (const ms of batch.delaysMs) this.metrics.applyDelay.observe(ms / 1_000);
      this.published.publish(graphId, batch.appliedSeq, batch.notices);
      // the batch's notices committed with it: dispatch them to webhooks now
      if (batch.notices) void this.webhooks.kick();
    });
    if (outcome.stalled) {
      // its graph.quarantined notice, written with the stall
      if (outcome.notices) {
        this.published.publish(graphId, 0, outcome.notices);
        void this.webhooks.kick();
      }
      this.metrics.applyStalls.inc();
      this.logger.error(
        { graphId, seq: outcome.stalled.seq, reason: outcome.stalled.error },
        'graph quarantined: its next event could not be applied; see `graph-history stalled list`',
      );
    }
    // a trim job also keeps the account's newest NOTICES_KEPT notices
    if (outcome.trimDue || outcome.notices) {
      // Best effort: the sweeper schedules any trim that is still due.
      await this.queues
        .enqueueTrim(graphId)
        .catch((err: unknown) => this.logger.warn({ err, graphId }, 'could not enqueue trim'));
    }
    return outcome.applied;
  }
}
