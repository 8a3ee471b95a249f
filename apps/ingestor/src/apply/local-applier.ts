import { Inject, Injectable, Logger } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { CONFIG } from '@graph-history/http';
import { ApplyJobHandler } from './apply-job.handler';

/**
 * Applies graphs in this process, without Redis: the path apply requests take while the queues
 * are unreachable. Like the queue, one run per graph at a time (a request during a run is kept and
 * runs right after it) and at most APPLY_CONCURRENCY graphs at once; the graph's advisory lock
 * keeps it from ever applying a graph together with a BullMQ worker or another process. A free
 * slot goes to the waiting graph of best priority (see AccountBacklog), as in the queue.
 */
@Injectable()
export class LocalApplier {
  private readonly logger = new Logger(LocalApplier.name);
  /** Graphs waiting for a slot, with their priority (1 first). */
  private readonly requested = new Map<number, number>();
  private readonly running = new Map<number, Promise<void>>();

  constructor(
    private readonly handler: ApplyJobHandler,
    @Inject(CONFIG) private readonly config: Pick<Config, 'APPLY_CONCURRENCY'>,
  ) {}

  request(graphId: number, priority: number): void {
    this.requested.set(graphId, priority);
    this.pump();
  }

  /** Resolves once every run started or requested has finished (for shutdown). */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  private pump(): void {
    while (this.running.size < this.config.APPLY_CONCURRENCY) {
      const graphId = this.next();
      if (graphId === undefined) return;
      this.requested.delete(graphId);
      const run = this.handler
        .handle(graphId)
        .then(
          () => undefined,
          (err: unknown) => this.logger.warn({ err, graphId }, 'in-process apply failed'),
        )
        .finally(() => {
          this.running.delete(graphId);
          this.pump();
        });
      this.running.set(graphId, run);
    }
  }

  /** The waiting graph not running now of best priority, first asked among equals. */
  private next(): number | undefined {
    let best: number | undefined;
    let bestPriority = Infinity;
    for (const [graphId, priority] of this.requested) {
      if (priority < bestPriority && !this.running.has(graphId)) {
        best = graphId;
        bestPriority = priority;
      }
    }
    return best;
  }
}
