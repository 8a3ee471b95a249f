import { Injectable, Logger } from '@nestjs/common';
import { isGraphKey } from '@graph-history/domain';
import { ApiError, Principal } from '@graph-history/http';
import { JobQueues } from '../jobs/job-queues';
import { IngestorMetrics } from '../ops/ingestor-metrics';
import { EventStore } from './event-store';
import { invalidGraphKey, restrictedKeyCannotWrite } from './ingest-errors';
import { readEventsBody } from './read-events-body';

/** The ingest endpoint's answer (202). */
export interface IngestResult {
  accepted: number;
  duplicates: number;
  last_key: string | null;
}

@Injectable()
export class IngestService {
  private readonly logger = new Logger(IngestService.name);

  constructor(
    private readonly store: EventStore,
    private readonly queues: JobQueues,
    private readonly metrics: IngestorMetrics,
  ) {}

  /** Stores a batch durably (all or nothing), then asks for it to be applied. */
  async ingest(principal: Principal, graphKey: string, body: unknown): Promise<IngestResult> {
    if (principal.kind !== 'secret') throw restrictedKeyCannotWrite();
    if (!isGraphKey(graphKey)) throw invalidGraphKey();
    const events = readEventsBody(body);
    const stored = await this.store
      .store({ accountId: principal.accountId, graphKey, events })
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.code === 'parameter_invalid')
          this.metrics.batchesRejected.inc();
        throw err;
      });
    this.metrics.eventsStored.inc(stored.accepted);
    this.metrics.duplicates.inc(stored.duplicates);
    if (stored.accepted > 0) {
      // The batch is committed: answer now. A lost enqueue is re-derived by the sweeper.
      this.queues
        .enqueueApply(stored.graphId)
        .catch((err: unknown) =>
          this.logger.warn(
            { err, graphId: stored.graphId },
            'could not enqueue apply; the sweeper will',
          ),
        );
    }
    return { accepted: stored.accepted, duplicates: stored.duplicates, last_key: stored.lastKey };
  }
}
