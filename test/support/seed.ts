import type { WatchEvent } from '@graph-history/domain';
import { AccountRepository, Db } from '@graph-history/db';
import { MAX_EVENTS_PER_BATCH } from '../../apps/ingestor/src/ingest/ingest-limits';
import { ingestPipeline } from './ingest-pipeline';

export interface SeedGraphOptions {
  /** Account owning the graph; created when new. Default `seed`. */
  accountName?: string;
  graphKey: string;
  events: WatchEvent[];
}

export interface SeededGraph {
  graphId: number;
  accountId: number;
}

/**
 * Stores and applies `events` into graph `gph_<graphKey>` synchronously, through the ingestor's
 * own write path (EventStore -> GraphApplier -> Trimmer) without HTTP or Redis: validation,
 * idempotency, retention and trimming behave exactly as in production. Invalid events throw the
 * ApiError the ingest endpoint would answer. Calling it again appends to the same graph.
 */
export async function seedGraph(db: Db, options: SeedGraphOptions): Promise<SeededGraph> {
  const account = await new AccountRepository(db).findOrCreate(
    options.accountName ?? 'seed',
    Date.now(),
  );
  const { store, applier, trimmer } = await ingestPipeline(db);
  let graphId = 0;
  for (let i = 0; i === 0 || i < options.events.length; i += MAX_EVENTS_PER_BATCH) {
    const batch = options.events.slice(i, i + MAX_EVENTS_PER_BATCH);
    ({ graphId } = await store.store({
      accountId: account.accountId,
      graphKey: options.graphKey,
      events: batch,
    }));
    await applier.applyPending(graphId);
  }
  await trimmer.trim(graphId);
  return { graphId, accountId: account.accountId };
}
