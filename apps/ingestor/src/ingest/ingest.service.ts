import { Injectable } from '@nestjs/common';
import { isGraphKey } from '@graph-history/domain';
import { ApiError, Principal } from '@graph-history/http';
import { ApplyRequests } from '../jobs/apply-requests';
import { IngestorMetrics } from '../ops/ingestor-metrics';
import { IngestRateLimit } from '../rate-limit/ingest-rate-limit';
import { EventStore } from './event-store';
import { invalidGraphKey, restrictedKeyCannotWrite, tooManyStoresWaiting } from './ingest-errors';
import { readEventsBody } from './read-events-body';
import { StoreSlots } from './store-slots';

/** The ingest endpoint's answer (202). */
export interface IngestResult {
  accepted: number;
  duplicates: number;
  last_key: string | null;
}

@Injectable()
export class IngestService {
  constructor(
    private readonly store: EventStore,
    private readonly applyRequests: ApplyRequests,
    private readonly metrics: IngestorMetrics,
    private readonly rateLimit: IngestRateLimit,
    private readonly stores: StoreSlots,
  ) {}

  /**
   * Stores a batch durably (all or nothing), then asks for it to be applied. The account's ingest
   * limit is charged first (`sent.bytes`: the request body's size); a refused batch stores nothing.
   * A batch waits for a store slot (StoreSlots): an account alone may use them all, and while
   * another account's batch waits, the slot freed next goes to whichever holds fewer.
   */
  async ingest(
    principal: Principal,
    graphKey: string,
    body: unknown,
    sent: { bytes: number; authorization: string | undefined },
  ): Promise<IngestResult> {
    if (principal.kind !== 'secret') throw restrictedKeyCannotWrite();
    if (!isGraphKey(graphKey)) throw invalidGraphKey();
    const events = readEventsBody(body);
    await this.rateLimit.admit(principal.accountId, sent.authorization, events.length, sent.bytes);
    const release = await this.stores.acquire(principal.accountId);
    if (!release) throw tooManyStoresWaiting();
    const stored = await this.store
      .store({ accountId: principal.accountId, graphKey, events })
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.code === 'parameter_invalid')
          this.metrics.batchesRejected.inc();
        if (err instanceof ApiError && err.code === 'quota_exceeded')
          this.metrics.quotaRefusals.inc({ quota: String(err.extra.quota) });
        throw err;
      })
      .finally(release);
    this.metrics.eventsStored.inc(stored.accepted);
    this.metrics.duplicates.inc(stored.duplicates);
    if (stored.accepted > 0) {
      // The batch is committed: answer now. A lost request is re-derived by the sweeper.
      void this.applyRequests.request(stored.graphId, principal.accountId);
    }
    return { accepted: stored.accepted, duplicates: stored.duplicates, last_key: stored.lastKey };
  }
}
