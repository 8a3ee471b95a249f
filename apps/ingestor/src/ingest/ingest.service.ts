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
    sent: SentBody,
  ): Promise<IngestResult> {
    checkWriter(principal, graphKey);
    const events = readEventsBody(body);
    const stored = await this.storeEvents(principal, graphKey, events, sent);
    return { accepted: stored.accepted, duplicates: stored.duplicates, last_key: stored.last_key };
  }

  /**
   * `ingest` for events the server made itself (a provider's hook): with `dropRefused`, an event
   * the graph refuses (e.g. on an agent that has ended) is dropped and the rest stored, as
   * `watch` does with a 400, rather than refusing the whole batch.
   */
  async storeEvents(
    principal: Principal,
    graphKey: string,
    events: unknown[],
    sent: SentBody,
    dropRefused = false,
  ): Promise<IngestResult & { dropped: number }> {
    await this.rateLimit.admit(principal.accountId, sent.authorization, events.length, sent.bytes);
    const release = await this.stores.acquire(principal.accountId);
    if (!release) throw tooManyStoresWaiting();
    let pending = events;
    let dropped = 0;
    const stored = await (async () => {
      for (;;) {
        try {
          return await this.store.store({
            accountId: principal.accountId,
            graphKey,
            events: pending,
          });
        } catch (err) {
          const index = dropRefused ? refusedIndex(err, pending.length) : undefined;
          if (index === undefined || pending.length === 1) throw err;
          pending = pending.filter((_, i) => i !== index);
          dropped += 1;
        }
      }
    })()
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
    return {
      accepted: stored.accepted,
      duplicates: stored.duplicates,
      last_key: stored.lastKey,
      dropped,
    };
  }
}

/** The request body's size and credentials, which the ingest limit is charged by. */
export interface SentBody {
  bytes: number;
  authorization: string | undefined;
}

/** Only a secret key writes, to a well-formed graph key. */
export function checkWriter(principal: Principal, graphKey: string): void {
  if (principal.kind !== 'secret') throw restrictedKeyCannotWrite();
  if (!isGraphKey(graphKey)) throw invalidGraphKey();
}

/** The index of the event a 400 `events[i]…` names. */
function refusedIndex(err: unknown, length: number): number | undefined {
  if (!(err instanceof ApiError) || err.code !== 'parameter_invalid') return undefined;
  const match = /^events\[(\d+)\]/.exec(err.param ?? '');
  const index = match ? Number(match[1]) : NaN;
  return Number.isInteger(index) && index < length ? index : undefined;
}
