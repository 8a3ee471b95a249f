import { Inject, Injectable, Logger } from '@nestjs/common';
import { LocalApplier } from '../apply/local-applier';
import { IngestorMetrics } from '../ops/ingestor-metrics';
import { INGESTOR_OPTIONS, IngestorOptions } from '../tokens';
import { AccountBacklog } from './account-backlog';
import { JobQueues } from './job-queues';

/**
 * Where "apply this graph" goes: the BullMQ `apply` queue, or, while Redis cannot be reached, the
 * in-process LocalApplier (in a process that runs workers), so that acknowledged events keep
 * becoming readable during an outage. When Redis answers again, requests go back to the queue;
 * nothing is applied twice (the graph's advisory lock and the compare-and-set on applied_seq).
 * Logs the outage once when it starts and once when it ends. Either way a request carries its
 * account's priority (AccountBacklog), so one account's backlog does not delay another's applies.
 */
@Injectable()
export class ApplyRequests {
  private readonly logger = new Logger(ApplyRequests.name);
  private redisAway = false;
  private readonly backlog = new AccountBacklog();

  constructor(
    private readonly queues: JobQueues,
    private readonly local: LocalApplier,
    private readonly metrics: IngestorMetrics,
    @Inject(INGESTOR_OPTIONS) private readonly options: IngestorOptions,
  ) {}

  /** Never rejects: a request that nothing could take is re-derived by the next sweep. */
  async request(graphId: number, accountId: number): Promise<void> {
    const priority = this.backlog.priority(accountId, graphId);
    try {
      await this.queues.enqueueApply(graphId, priority);
      if (this.redisAway) {
        this.redisAway = false;
        this.logger.log('Redis answers again: applying through the queues');
      }
    } catch (err) {
      if (!this.redisAway) {
        this.redisAway = true;
        this.logger.warn(
          { err },
          this.options.runWorkers
            ? 'Redis unreachable: applying in this process, driven by Postgres'
            : 'Redis unreachable: the sweeper of a worker process applies what is stored',
        );
      }
      if (!this.options.runWorkers) return;
      this.metrics.applyFallbacks.inc();
      this.local.request(graphId, priority);
    }
  }
}
